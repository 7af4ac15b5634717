// Command genverbs writes the page's module of activity verbs (verbs.js)
// from the board's table of them, so the two cannot drift.
package main

import (
	"fmt"
	"os"

	"github.com/opsboard/opsboard/board/internal/rules/activity"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genverbs <path of verbs.js>")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], activity.VerbsJS(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genverbs:", err)
		os.Exit(1)
	}
}
