module github.com/opsboard/opsboard/shared

go 1.26.8
