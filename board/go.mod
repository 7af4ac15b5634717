module github.com/opsboard/opsboard/board

go 1.26.8

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/google/go-cmp v0.7.0
	github.com/gorilla/mux v1.8.1
	github.com/opsboard/opsboard/shared v0.0.0
)

require golang.org/x/sys v0.13.0 // indirect

replace github.com/opsboard/opsboard/shared => ../shared
