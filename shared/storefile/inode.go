package storefile

import (
	"io/fs"
	"syscall"
)

// inode tells two files of equal size and time apart after a rename.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
