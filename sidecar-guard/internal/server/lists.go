package server

import (
	"net/http"

	"github.com/opsboard/opsboard/shared/httpjson"
	"github.com/opsboard/opsboard/shared/wire"
)

// GET /trust
func (s *Server) listTrust(w http.ResponseWriter, r *http.Request) {
	httpjson.Reply(w, http.StatusOK, wire.TrustList{Senders: s.cfg.Store.Trust()})
}

// POST /trust
func (s *Server) upsertTrust(w http.ResponseWriter, r *http.Request) {
	var in wire.TrustUpsert
	if err := bodies.Decode(w, r, &in); err != nil {
		s.fail(w, err)
		return
	}
	out, err := s.cfg.Store.UpsertTrust(r.Context(), in)
	if err != nil {
		s.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, out)
}

// DELETE /trust/{email}: the sender becomes unknown. The answer is the
// record as it now stands.
func (s *Server) deleteTrust(w http.ResponseWriter, r *http.Request) {
	email, err := pathVar(r, "email")
	if err != nil {
		s.fail(w, err)
		return
	}
	rec, err := s.cfg.Store.DeleteTrust(r.Context(), email)
	if err != nil {
		s.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, wire.TrustReply{Record: wire.TrustRecord{Email: rec.Email, Tier: wire.TierUnknown}, Changed: true})
}

// GET /quarantine
func (s *Server) listQuarantine(w http.ResponseWriter, r *http.Request) {
	httpjson.Reply(w, http.StatusOK, wire.QuarantineList{Records: s.cfg.Store.Quarantine()})
}

// PATCH /quarantine/{id}
func (s *Server) patchQuarantine(w http.ResponseWriter, r *http.Request) {
	id, err := pathVar(r, "id")
	if err != nil {
		s.fail(w, err)
		return
	}
	var in wire.QuarantinePatch
	if err := bodies.Decode(w, r, &in); err != nil {
		s.fail(w, err)
		return
	}
	rec, err := s.cfg.Store.PatchQuarantine(r.Context(), id, in)
	if err != nil {
		s.fail(w, err)
		return
	}
	httpjson.Reply(w, http.StatusOK, rec)
}
