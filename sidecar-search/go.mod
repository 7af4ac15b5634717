module github.com/opsboard/opsboard/sidecar-search

go 1.26.8

require (
	github.com/google/go-cmp v0.7.0
	github.com/gorilla/mux v1.8.1
	github.com/opsboard/opsboard/shared v0.0.0
	golang.org/x/text v0.25.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

replace github.com/opsboard/opsboard/shared => ../shared
