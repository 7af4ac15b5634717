// Package trello reads a Trello board's JSON export (Menu > Print, export
// and share > Export as JSON) into an import plan.
//
// The board becomes one initiative and each open card a case under it. A
// list whose name is a lane ("To Do", "Doing", "Blocked", "Done", or a
// lane's own name: see imports.LaneOf) puts its cards in that lane; any
// other list becomes a label of the list's name on its cards, which go in
// the todo lane. Card labels become labels (a label without a name is
// named for its color), checklist items become tasks (done items done),
// the card's due date its due date and its comments notes. Archived cards
// and the cards of archived lists are left out.
package trello

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/opsboard/opsboard/board/internal/imports"
	"github.com/opsboard/opsboard/shared/wire"
)

// Prefix marks a source id as Trello's.
const Prefix = "trello:"

type board struct {
	ID     string  `json:"id"`
	Name   string  `json:"name"`
	Desc   string  `json:"desc"`
	Labels []label `json:"labels"`
	Lists  []struct {
		ID     string  `json:"id"`
		Name   string  `json:"name"`
		Closed bool    `json:"closed"`
		Pos    float64 `json:"pos"`
	} `json:"lists"`
	Cards []struct {
		ID       string   `json:"id"`
		Name     string   `json:"name"`
		Desc     string   `json:"desc"`
		IDList   string   `json:"idList"`
		IDLabels []string `json:"idLabels"`
		Due      string   `json:"due"`
		Closed   bool     `json:"closed"`
		Pos      float64  `json:"pos"`
	} `json:"cards"`
	Checklists []struct {
		ID         string  `json:"id"`
		IDCard     string  `json:"idCard"`
		Name       string  `json:"name"`
		Pos        float64 `json:"pos"`
		CheckItems []struct {
			ID    string  `json:"id"`
			Name  string  `json:"name"`
			State string  `json:"state"`
			Pos   float64 `json:"pos"`
			Due   string  `json:"due"`
		} `json:"checkItems"`
	} `json:"checklists"`
	Actions []struct {
		Type string `json:"type"`
		Date string `json:"date"`
		Data struct {
			Text string `json:"text"`
			Card struct {
				ID string `json:"id"`
			} `json:"card"`
		} `json:"data"`
		MemberCreator struct {
			FullName string `json:"fullName"`
		} `json:"memberCreator"`
	} `json:"actions"`
}

type label struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Color string `json:"color"`
}

// Sniff reports whether data looks like a Trello board export.
func Sniff(data []byte) bool {
	var head struct {
		Lists json.RawMessage `json:"lists"`
		Cards json.RawMessage `json:"cards"`
	}
	return json.Unmarshal(data, &head) == nil && head.Lists != nil && head.Cards != nil
}

// colors maps Trello's label colors to the board's palette.
var colors = map[string]string{
	"green": "green", "yellow": "amber", "orange": "orange", "red": "red", "purple": "violet",
	"blue": "blue", "sky": "sky", "lime": "green", "pink": "pink", "black": "gray",
}

// Parse reads a board export into a plan.
func Parse(data []byte) (imports.Plan, error) {
	var b board
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&b); err != nil {
		return imports.Plan{}, imports.BadRow("file", "not a Trello board export: %v", err)
	}
	if b.ID == "" {
		return imports.Plan{}, imports.BadRow("file", "not a Trello board export: the board has no id")
	}
	title := strings.TrimSpace(b.Name)
	if title == "" {
		title = "Trello board"
	}
	r := reader{b: &b, cardAt: map[string]int{}}
	r.p.Format = wire.ImportTrello
	r.p.Nodes = append(r.p.Nodes, imports.Node{Row: "board " + b.ID, SourceID: Prefix + b.ID, Kind: wire.KindInitiative, Title: title, Summary: b.Desc})
	r.labels()
	for _, step := range []func() error{r.lists, r.cards, r.checklists} {
		if err := step(); err != nil {
			return imports.Plan{}, err
		}
	}
	r.comments()
	return r.p, nil
}

// list is what an open Trello list means for its cards: a lane, or a label
// of its name; order keeps the board's order of lists.
type list struct {
	order int
	lane  wire.Lane
	label string
}

// reader builds the plan of one board export.
type reader struct {
	b        *board
	p        imports.Plan
	labelKey map[string]string // Trello label id -> plan key
	byID     map[string]list   // open list id -> its meaning
	cardAt   map[string]int    // card id -> index in p.Nodes
}

// labels adds the board's labels, one without a name named for its color.
func (r *reader) labels() {
	r.labelKey = map[string]string{}
	for _, l := range r.b.Labels {
		name := strings.TrimSpace(l.Name)
		if name == "" {
			name = strings.TrimSuffix(strings.TrimSuffix(l.Color, "_dark"), "_light")
		}
		if name == "" {
			continue
		}
		r.labelKey[l.ID] = name
		r.p.Labels = append(r.p.Labels, imports.Label{Key: name, Title: name, Color: colors[strings.SplitN(l.Color, "_", 2)[0]]})
	}
}

// lists reads each open list as a lane, or else as a label it adds.
func (r *reader) lists() error {
	r.byID = map[string]list{}
	for i, l := range r.b.Lists {
		if l.Closed {
			continue
		}
		if lane, ok := imports.LaneOf(l.Name); ok {
			r.byID[l.ID] = list{order: i, lane: lane}
			continue
		}
		name := strings.TrimSpace(l.Name)
		if name == "" {
			return imports.BadRow("list "+l.ID, "a list needs a name")
		}
		r.byID[l.ID] = list{order: i, label: name}
		r.p.Labels = append(r.p.Labels, imports.Label{Key: "list:" + name, Title: name})
	}
	return nil
}

// cards adds each open card of an open list as a case under the board's
// initiative, in the board's order of lists and cards.
func (r *reader) cards() error {
	closedList := map[string]bool{}
	for _, l := range r.b.Lists {
		closedList[l.ID] = l.Closed
	}
	root := r.p.Nodes[0].SourceID
	cards := r.b.Cards
	sort.SliceStable(cards, func(i, j int) bool {
		li, lj := r.byID[cards[i].IDList], r.byID[cards[j].IDList]
		if li.order != lj.order {
			return li.order < lj.order
		}
		return cards[i].Pos < cards[j].Pos
	})
	for _, c := range cards {
		row := "card " + c.ID
		if c.Closed || closedList[c.IDList] {
			continue
		}
		l, ok := r.byID[c.IDList]
		if !ok {
			return imports.BadRow(row, "list %s is not in the file", c.IDList)
		}
		name := strings.TrimSpace(c.Name)
		if name == "" {
			return imports.BadRow(row, "a card needs a name")
		}
		due, ok := imports.Due(c.Due)
		if !ok {
			return imports.BadRow(row, "due %q is not a date", c.Due)
		}
		n := imports.Node{Row: row, SourceID: Prefix + c.ID, ParentSourceID: root, Kind: wire.KindCase,
			Title: name, Summary: c.Desc, Status: l.lane, DueAt: due}
		if l.label != "" {
			n.Labels = append(n.Labels, "list:"+l.label)
		}
		for _, id := range c.IDLabels {
			if k, ok := r.labelKey[id]; ok {
				n.Labels = append(n.Labels, k)
			}
		}
		r.p.Nodes = append(r.p.Nodes, n)
		r.cardAt[c.ID] = len(r.p.Nodes) - 1
	}
	return nil
}

// checklists adds each checklist item as a task of its card, the
// checklist's own name (unless the default) as the task's detail.
func (r *reader) checklists() error {
	checklists := r.b.Checklists
	sort.SliceStable(checklists, func(i, j int) bool { return checklists[i].Pos < checklists[j].Pos })
	for _, cl := range checklists {
		i, ok := r.cardAt[cl.IDCard]
		if !ok {
			continue // on an archived card
		}
		items := cl.CheckItems
		sort.SliceStable(items, func(i, j int) bool { return items[i].Pos < items[j].Pos })
		for _, it := range items {
			row := fmt.Sprintf("checklist %s item %s", cl.ID, it.ID)
			due, ok := imports.Due(it.Due)
			if !ok {
				return imports.BadRow(row, "due %q is not a date", it.Due)
			}
			if strings.TrimSpace(it.Name) == "" {
				return imports.BadRow(row, "a checklist item needs a name")
			}
			detail := ""
			if cl.Name != "" && cl.Name != "Checklist" {
				detail = cl.Name
			}
			r.p.Nodes[i].Tasks = append(r.p.Nodes[i].Tasks, imports.Task{SourceID: Prefix + it.ID, Title: it.Name, Detail: detail, DueAt: due, Done: it.State == "complete"})
		}
	}
	return nil
}

// comments adds each comment on an imported card as a note, its author's
// name first.
func (r *reader) comments() {
	// Trello lists actions newest first; notes read oldest first.
	for k := len(r.b.Actions) - 1; k >= 0; k-- {
		a := r.b.Actions[k]
		i, ok := r.cardAt[a.Data.Card.ID]
		if a.Type != "commentCard" || !ok || strings.TrimSpace(a.Data.Text) == "" {
			continue
		}
		text := a.Data.Text
		if who := strings.TrimSpace(a.MemberCreator.FullName); who != "" {
			text = who + ": " + text
		}
		at, _ := imports.Due(a.Date)
		r.p.Nodes[i].Notes = append(r.p.Nodes[i].Notes, imports.Note{Text: text, CreatedAt: at})
	}
}
