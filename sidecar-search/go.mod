module github.com/opsboard/opsboard/sidecar-search

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/gorilla/mux v1.8.1
	github.com/opsboard/opsboard/shared v0.0.0
	golang.org/x/text v0.25.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/schollz/progressbar/v3 v3.19.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/term v0.48.0 // indirect
)

replace github.com/opsboard/opsboard/shared => ../shared
