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
		if f.Type.Kind() == reflect.Slice && f.Type.Elem().Implements(keyed) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			inDoc = append(inDoc, Collection(name))
		}
	}
	if !slices.Equal(inDoc, Collections) {
		t.Errorf("the document holds the collections %v, the table of kinds lists %v: add the missing kind to kindgen/kinds.go and run go generate", inDoc, Collections)
	}
}
