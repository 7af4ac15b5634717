package wire

// Download states of a sidecar's model download.
const (
	DownloadIdle        = "idle"        // nothing to fetch: the model is there, or downloads are off
	DownloadDownloading = "downloading" // a file is arriving
	DownloadDone        = "done"        // every file arrived and the model loaded
	DownloadFailed      = "failed"      // the hub refused, a file was corrupt, or the model did not load
	DownloadOffline     = "offline"     // the hub could not be reached
)

// ModelDownload is a sidecar's model download as /healthz, /stats and the
// guard's /config report it.
type ModelDownload struct {
	State string `json:"state"`
	File  string `json:"file"`  // the file arriving, or the last one tried
	Bytes int64  `json:"bytes"` // bytes of that file on disk so far
	Error string `json:"error"` // why the download stopped, "" when it did not fail
}
