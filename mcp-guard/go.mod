module github.com/opsboard/opsboard/mcp-guard

go 1.26.8

require github.com/opsboard/opsboard/shared v0.0.0

replace github.com/opsboard/opsboard/shared => ../shared
