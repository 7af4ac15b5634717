package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opsboard/opsboard/shared/wire"
)

func TestParseEntityQuery(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want entityQuery
	}{
		{"Alice@Acme.test", entityQuery{raw: "Alice@Acme.test", address: "alice@acme.test", domain: "acme.test"}},
		{"Alice Martin <alice@acme.test>", entityQuery{raw: "Alice Martin <alice@acme.test>", name: "Alice Martin", address: "alice@acme.test", domain: "acme.test"}},
		{`"Martin, Alice" <alice@acme.test>`, entityQuery{raw: `"Martin, Alice" <alice@acme.test>`, name: "Martin, Alice", address: "alice@acme.test", domain: "acme.test"}},
		{"  Ali ", entityQuery{raw: "Ali", name: "Ali"}},
		{"acme.test", entityQuery{raw: "acme.test", name: "acme.test", domain: "acme.test"}},
		{"Dr. Who", entityQuery{raw: "Dr. Who", name: "Dr. Who"}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, parseEntityQuery(tc.q), cmp.AllowUnexported(entityQuery{})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
	if diff := cmp.Diff([]string{"alice@acme.test", "acme.test", "Alice Martin"}, parseEntityQuery("Alice Martin <alice@acme.test>").terms()); diff != "" {
		t.Errorf("terms (-want +got)\n%s", diff)
	}
}

// TestRankPages: an address on a person page beats a title, a title an
// alias, an alias the organisation's domain, and that a part of a title;
// ties go by title, and a page listed twice (once per term) counts once.
func TestRankPages(t *testing.T) {
	person := wire.PageSummary{ID: "V-3", Path: "people/Alice Martin.md", Title: "Alice Martin", Type: wire.PagePerson, Emails: []string{"alice@acme.test"}, Aliases: []string{"Ali"}}
	named := wire.PageSummary{ID: "V-4", Path: "people/Ali.md", Title: "Ali", Type: wire.PagePerson}
	org := wire.PageSummary{ID: "V-5", Path: "organizations/Acme.md", Title: "Acme", Type: wire.PageOrganization, Domains: []string{"acme.test"}}
	chen := wire.PageSummary{ID: "V-8", Path: "people/Alice Chen.md", Title: "Alice Chen", Type: wire.PagePerson, Aliases: []string{"AC"}}
	body := wire.PageSummary{ID: "V-9", Path: "topics/Offsite.md", Title: "Offsite", Type: wire.PageTopic}
	all := []wire.PageSummary{body, chen, org, named, person, org}
	type row struct {
		ref  string
		rank int
		why  string
	}
	for _, tc := range []struct {
		q    string
		want []row
	}{
		{"Ali <alice@acme.test>", []row{
			{"V-3", rankEmail, "its emails hold alice@acme.test"},
			{"V-4", rankTitle, `its title is "Ali"`},
			{"V-5", rankDomain, "its domains hold acme.test"},
			{"V-8", rankPartial, `its title "Alice Chen" contains "Ali"`},
			{"V-9", rankListed, `the vault's page search matched "Ali <alice@acme.test>"`},
		}},
		{"ali", []row{
			{"V-4", rankTitle, `its title is "Ali"`},
			{"V-3", rankAlias, `it has the alias "Ali"`},
			{"V-8", rankPartial, `its title "Alice Chen" contains "ali"`},
			{"V-5", rankListed, `the vault's page search matched "ali"`},
			{"V-9", rankListed, `the vault's page search matched "ali"`},
		}},
		{"Alice", []row{
			{"V-8", rankPartial, `its title "Alice Chen" contains "Alice"`},
			{"V-3", rankPartial, `its title "Alice Martin" contains "Alice"`},
			{"V-5", rankListed, `the vault's page search matched "Alice"`},
			{"V-4", rankListed, `the vault's page search matched "Alice"`},
			{"V-9", rankListed, `the vault's page search matched "Alice"`},
		}},
		{"acme", []row{
			{"V-5", rankTitle, `its title is "Acme"`},
			{"V-3", rankPartial, `its email "alice@acme.test" contains "acme"`},
			{"V-4", rankListed, `the vault's page search matched "acme"`},
			{"V-8", rankListed, `the vault's page search matched "acme"`},
			{"V-9", rankListed, `the vault's page search matched "acme"`},
		}},
		{"bob@acme.test", []row{
			{"V-5", rankDomain, "its domains hold acme.test"},
			{"V-4", rankListed, `the vault's page search matched "bob@acme.test"`},
			{"V-8", rankListed, `the vault's page search matched "bob@acme.test"`},
			{"V-3", rankListed, `the vault's page search matched "bob@acme.test"`},
			{"V-9", rankListed, `the vault's page search matched "bob@acme.test"`},
		}},
	} {
		t.Run(tc.q, func(t *testing.T) {
			var got []row
			for _, r := range rankPages(parseEntityQuery(tc.q), all) {
				got = append(got, row{r.Page.ID, r.rank, r.Reason})
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(row{})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
