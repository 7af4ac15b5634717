package bipia

import "testing"

func TestInsertAt(t *testing.T) {
	email := "Hello Ann,\nthe invoice is attached.\nBest, Tom"
	for _, tc := range []struct{ where, want string }{
		{"start", "X\n" + email},
		{"end", email + "\nX"},
		{"middle", "Hello Ann,\nX\n\nthe invoice is attached.\nBest, Tom"},
	} {
		if got := InsertAt(email, "X", tc.where); got != tc.want {
			t.Errorf("InsertAt %s = %q, want %q", tc.where, got, tc.want)
		}
	}
	if got := InsertAt("one line only", "X", "middle"); got != "one line\nX\n only" {
		t.Errorf("InsertAt of a one-line email = %q", got)
	}
}

func TestReadsBothParts(t *testing.T) {
	for _, part := range []string{"train", "test"} {
		emails, err := Emails(EmailsPath("../../testdata/bipia", part))
		if err != nil || len(emails) != 50 {
			t.Fatalf("%s emails: %d, %v", part, len(emails), err)
		}
		attacks, cats, err := Attacks(AttacksPath("../../testdata/bipia", part))
		if err != nil || len(cats) != 15 || len(attacks[cats[0]]) != 5 {
			t.Fatalf("%s attacks: %d categories, %v", part, len(cats), err)
		}
	}
}
