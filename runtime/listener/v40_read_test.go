package listener_test

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestV40ReadGolden reads every shared request case (the same ones the
// vllm-sr/5.0 codec reads) into testdata/v40/read/<case>.golden.
func TestV40ReadGolden(t *testing.T) {
	for _, c := range requestCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			cr, err := listener.V40.Read(c.Path, c.Body, c.Header)
			testkit.GoldenCheck(t, "testdata/v40/read/"+c.Name+".golden", []byte(renderRead(listener.V40, cr, err)))
		})
	}
}

// TestV40RemovedFormsAccepted: every form vllm-sr/5.0 removed is read on 4.0,
// as a pass-through the internal form reads as it is, and recorded.
func TestV40RemovedFormsAccepted(t *testing.T) {
	cases := map[string]string{
		"removed-choices":      ir.FormChoices,
		"removed-choices-noul": ir.FormChoices,
		"removed-levels":       ir.FormLevels,
		"removed-labels":       ir.FormLabels,
		"removed-images":       ir.FormImages,
		"removed-videos":       ir.FormVideos,
		"removed-states":       ir.FormStates,
		"removed-long-context": ir.FormLongContext,
		"removed-preset-only":  ir.FormPresetOnly,
		"implicit-roles":       ir.FormImplicitRoles,
	}
	for name, form := range cases {
		cr := accept(t, listener.V40, name)
		if legacyForms(cr.Diagnostics, form) == 0 {
			t.Errorf("%s: %s not recorded: %+v", name, form, cr.Diagnostics)
		}
		if cr.Plan != listener.PlanPassThrough {
			t.Errorf("%s: plan %s, want pass_through", name, cr.Plan)
		}
		if _, _, err := shapes.DecodeRequest(cr.Body); err != nil {
			t.Errorf("%s: a pass-through the internal form refuses: %v", name, err)
		}
	}
}

// TestV40Overlaps: a valid 5.0 request keeps its 4.0 reading, recorded.
func TestV40Overlaps(t *testing.T) {
	cr := accept(t, listener.V40, "object-state-no-roles")
	if cr.Request.Roles.Mode != ir.RoleModeImplicit || legacyForms(cr.Diagnostics, ir.FormImplicitRoles) != 1 {
		t.Errorf("object state without roles: mode %s diagnostics %+v", cr.Request.Roles.Mode, cr.Diagnostics)
	}
	cr = accept(t, listener.V40, "media-in-front")
	if cr.Media != nil || legacyForms(cr.Diagnostics, ir.FormMediaInFront) != 1 {
		t.Errorf("media in front: media %+v diagnostics %+v", cr.Media, cr.Diagnostics)
	}
	if cr := accept(t, listener.V40, "media-not-in-front"); legacyForms(cr.Diagnostics, ir.FormMediaInFront) != 0 {
		t.Errorf("a video before an image is no overlap: %+v", cr.Diagnostics)
	}
	if cr := accept(t, listener.V40, "guide-request"); len(cr.Diagnostics) != 0 || cr.Request.Roles.Mode != ir.RoleModeExplicit {
		t.Errorf("a 5.0 request with roles has no legacy form: %+v", cr.Diagnostics)
	}
}

func TestV40LongContextHeaderTranslates(t *testing.T) {
	cr := accept(t, listener.V40, "long-context-header")
	if cr.Plan != listener.PlanTranslate || !*cr.Request.Options.LongContext {
		t.Fatalf("plan %s options %+v", cr.Plan, cr.Request.Options)
	}
}

// TestV40ErrorsCarryBothShapes: a refusal carries the standard detail and
// 4.0's error object.
func TestV40ErrorsCarryBothShapes(t *testing.T) {
	c := findCase(t, "unknown-question")
	_, err := listener.V40.Read(c.Path, c.Body, c.Header)
	var r *listener.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("not refused: %v", err)
	}
	status, body := listener.V40.AnswerError(nil, &r.Body)
	if status != 400 || !strings.Contains(string(body), `"detail":"`) || !strings.Contains(string(body), `"error":{"code":"invalid_request","message":`) {
		t.Fatalf("%d %s", status, body)
	}
}

// TestV40FormCounter: the counter counts each form once per request, both
// overlaps included, skips the native endpoints, and is safe for
// concurrent use.
func TestV40FormCounter(t *testing.T) {
	var counter listener.FormCounter
	names := []string{"removed-choices", "removed-images", "implicit-roles", "media-in-front", "object-state-no-roles", "guide-request", "decisions-internal-form"}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, n := range names {
				c := findCase(t, n)
				cr, err := listener.V40.Read(c.Path, c.Body, c.Header)
				if err != nil {
					t.Error(err)
					return
				}
				counter.Record(cr)
			}
		}()
	}
	wg.Wait()
	snap := counter.Snapshot()
	// removed-images also spells choices and puts its image in front of the text.
	want := map[string]uint64{ir.FormChoices: 8, ir.FormImages: 4, ir.FormImplicitRoles: 8, ir.FormMediaInFront: 8}
	if snap.Requests != 24 {
		t.Errorf("requests %d, want 24 (the decisions request is not counted)", snap.Requests)
	}
	for form, n := range want {
		if snap.Forms[form] != n {
			t.Errorf("%s: %d, want %d (all %v)", form, snap.Forms[form], n, snap.Forms)
		}
	}
	snap.Forms[ir.FormChoices] = 99
	if counter.Snapshot().Forms[ir.FormChoices] != 8 {
		t.Error("a snapshot shares the counter's map")
	}
}

// legacyForms is how many of d record the legacy form form.
func legacyForms(d ir.Diagnostics, form string) int {
	n := 0
	for _, x := range d {
		if x.Kind == ir.DiagnosticLegacyForm && x.Form == form {
			n++
		}
	}
	return n
}
