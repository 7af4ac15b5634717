package storefile

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/opsboard/opsboard/shared/wire"
)

// TestEveryCollectionOfTheDocumentIsAKind fails when wire.Doc gains a
// collection of records that kindgen's table does not list: the journal
// would then drop its changes without a word.
func TestEveryCollectionOfTheDocumentIsAKind(t *testing.T) {
	keyed := reflect.TypeFor[Keyed]()
	var inDoc []Collection
	for f := range reflect.TypeFor[wire.Doc]().Fields() {
		// A collection is a wire.List of records, or a slice of them.
		var rec reflect.Type
		switch at, ok := f.Type.MethodByName("At"); {
		case ok:
			rec = at.Type.Out(0)
		case f.Type.Kind() == reflect.Slice:
			rec = f.Type.Elem()
		default:
			continue
		}
		if rec.Implements(keyed) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			inDoc = append(inDoc, Collection(name))
		}
	}
	if !slices.Equal(inDoc, Collections) {
		t.Errorf("the document holds the collections %v, the table of kinds lists %v: add the missing kind to kindgen/kinds.go and run go generate", inDoc, Collections)
	}
}
