//go:build unix

package mbox

import (
	"io/fs"
	"syscall"
)

// inode identifies the file, so a replaced mbox restarts from the top.
func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino) //nolint:unconvert // Ino is uint32 on some platforms
	}
	return 0
}
