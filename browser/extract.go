package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// Extracted is the structured content of a page.
type Extracted struct {
	URL      string            `json:"url"`
	Title    string            `json:"title"`
	Lang     string            `json:"lang,omitempty"`
	Meta     map[string]string `json:"meta,omitempty"`
	Headings []struct {
		Level int    `json:"level"`
		Text  string `json:"text"`
	} `json:"headings"`
	Links []struct {
		Text string `json:"text"`
		URL  string `json:"url"`
	} `json:"links"`
	Tables []struct {
		Caption string     `json:"caption,omitempty"`
		Headers []string   `json:"headers,omitempty"`
		Rows    [][]string `json:"rows"`
	} `json:"tables"`
	Forms []struct {
		Name   string      `json:"name,omitempty"`
		Action string      `json:"action,omitempty"`
		Method string      `json:"method,omitempty"`
		Fields []FormField `json:"fields"`
	} `json:"forms"`
	Text      string `json:"text,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

// FormField is one control of a form.
type FormField struct {
	Label    string   `json:"label,omitempty"`
	Name     string   `json:"name,omitempty"`
	Type     string   `json:"type"`
	Value    string   `json:"value,omitempty"`
	Checked  bool     `json:"checked,omitempty"`
	Required bool     `json:"required,omitempty"`
	Options  []string `json:"options,omitempty"`
}

// extractJS collects the page's structure. Limits keep huge pages bounded.
const extractJS = `(maxLinks, maxRows, maxText) => {
  const clean = s => (s || '').replace(/\s+/g, ' ').trim();
  const labelOf = el => {
    if (el.labels && el.labels.length) return clean(el.labels[0].innerText);
    const a = el.getAttribute('aria-label'); if (a) return clean(a);
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const t = document.getElementById(lb); if (t) return clean(t.innerText); }
    return clean(el.getAttribute('placeholder') || el.title || '');
  };
  const meta = {};
  for (const m of document.querySelectorAll('meta[name], meta[property]')) {
    const k = m.getAttribute('name') || m.getAttribute('property');
    if (k && m.content) meta[k] = m.content.slice(0, 500);
  }
  const canon = document.querySelector('link[rel=canonical]'); if (canon) meta.canonical = canon.href;
  const headings = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].slice(0, 200)
    .map(h => ({level: +h.tagName[1], text: clean(h.innerText)})).filter(h => h.text);
  const links = []; const seen = new Set();
  for (const a of document.querySelectorAll('a[href]')) {
    if (links.length >= maxLinks) break;
    const u = a.href; if (!u || u.startsWith('javascript:') || seen.has(u)) continue;
    seen.add(u); links.push({text: clean(a.innerText || a.getAttribute('aria-label') || a.title), url: u});
  }
  const tables = [...document.querySelectorAll('table')].slice(0, 50).map(t => {
    const rows = [...t.rows].map(r => [...r.cells].map(c => clean(c.innerText)));
    let headers = [];
    const th = t.tHead && t.tHead.rows[0];
    if (th) { headers = [...th.cells].map(c => clean(c.innerText)); rows.splice(0, t.tHead.rows.length); }
    else if (t.rows[0] && [...t.rows[0].cells].every(c => c.tagName === 'TH')) { headers = rows.shift(); }
    return {caption: t.caption ? clean(t.caption.innerText) : '', headers, rows: rows.slice(0, maxRows)};
  });
  const fieldOf = el => {
    const f = {label: labelOf(el), name: el.name || el.id || '', type: (el.type || el.tagName).toLowerCase(),
      required: !!el.required};
    if (el.tagName === 'SELECT') { f.options = [...el.options].map(o => clean(o.text)); f.value = el.multiple ? [...el.selectedOptions].map(o => o.text).join(', ') : (el.selectedOptions[0] ? clean(el.selectedOptions[0].text) : ''); }
    else if (f.type === 'checkbox' || f.type === 'radio') { f.checked = el.checked; f.value = el.value; }
    else if (f.type !== 'password') f.value = (el.value || '').slice(0, 500);
    return f;
  };
  const forms = [...document.forms].slice(0, 20).map(fm => ({
    name: fm.getAttribute('name') || fm.id || '', action: fm.getAttribute('action') ? fm.action : '', method: (fm.method || 'get').toLowerCase(),
    fields: [...fm.elements].filter(e => e.tagName !== 'FIELDSET' && e.type !== 'hidden' && e.type !== 'submit' && e.type !== 'button' && e.tagName !== 'OBJECT' && e.tagName !== 'OUTPUT').map(fieldOf)
  }));
  const loose = [...document.querySelectorAll('input, select, textarea')].filter(e => !e.form && e.type !== 'hidden');
  if (loose.length) forms.push({name: '(outside any form)', action: '', method: '', fields: loose.slice(0, 100).map(fieldOf)});
  let text = document.body ? document.body.innerText : '';
  const truncated = text.length > maxText;
  return {url: location.href, title: document.title, lang: document.documentElement.lang || '', meta, headings, links, tables, forms,
    text: maxText > 0 ? text.slice(0, maxText) : '', truncated: maxText > 0 && truncated};
}`

// ExtractOptions bound what Extract returns.
type ExtractOptions struct {
	MaxLinks int // default 200
	MaxRows  int // per table, default 200
	MaxText  int // characters of visible text; 0: none
}

// Extract returns title, headings, links, tables, forms and metadata of the
// current tab, after navigating to url when given.
func (s *Session) Extract(ctx context.Context, raw string, o ExtractOptions) (*Extracted, error) {
	if o.MaxLinks <= 0 {
		o.MaxLinks = 200
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 200
	}
	var out *Extracted
	err := s.op(ctx, s.navTimeout()+s.actionTimeout(), func(ctx context.Context) error {
		if raw != "" {
			if _, err := s.checkNavigation(ctx, raw); err != nil {
				return err
			}
		}
		tab := s.pageTab // extracting the current page needs one
		if raw != "" {
			tab = s.tab
		}
		t, err := tab(ctx)
		if err != nil {
			return err
		}
		if raw != "" {
			if _, err := t.navigate(ctx, raw); err != nil {
				return err
			}
		}
		r, err := t.page.Context(ctx).Eval(extractJS, o.MaxLinks, o.MaxRows, o.MaxText)
		if err != nil {
			return fmt.Errorf("extract: %w", err)
		}
		out = &Extracted{}
		return json.Unmarshal([]byte(r.Value.JSON("", "")), out)
	})
	return out, err
}

// FieldResult is the outcome of filling one field.
type FieldResult struct {
	Field   string `json:"field"`
	Matched string `json:"matched,omitempty"` // how the control was found
	OK      bool   `json:"ok"`
	Error   string `json:"error,omitempty"`
}

const fillJS = `(fields, submit) => {
  const clean = s => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const controls = [...document.querySelectorAll('input, select, textarea')].filter(e => e.type !== 'hidden');
  const labelOf = el => {
    const out = [];
    if (el.labels) for (const l of el.labels) out.push(clean(l.innerText));
    const a = el.getAttribute('aria-label'); if (a) out.push(clean(a));
    const lb = el.getAttribute('aria-labelledby');
    if (lb) { const t = document.getElementById(lb); if (t) out.push(clean(t.innerText)); }
    if (el.placeholder) out.push(clean(el.placeholder));
    return out.map(s => s.replace(/[:*：]\s*$/, '').trim());
  };
  const find = key => {
    const k = clean(key);
    let hits = controls.filter(e => labelOf(e).includes(k)); if (hits.length) return [hits, 'label'];
    hits = controls.filter(e => e.name && e.name.toLowerCase() === k); if (hits.length) return [hits, 'name'];
    hits = controls.filter(e => e.id && e.id.toLowerCase() === k); if (hits.length) return [hits, 'id'];
    hits = controls.filter(e => labelOf(e).some(l => l.includes(k))); if (hits.length) return [hits, 'label (partial)'];
    return [[], ''];
  };
  const setValue = (el, v) => {
    const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
    setter.call(el, v);
    el.dispatchEvent(new Event('input', {bubbles: true}));
    el.dispatchEvent(new Event('change', {bubbles: true}));
  };
  const truthy = v => ['true', 'yes', 'on', '1', 'checked', 'x'].includes(clean(String(v)));
  const results = []; let form = null;
  for (const [key, value] of Object.entries(fields)) {
    const [hits, how] = find(key);
    if (!hits.length) { results.push({field: key, ok: false, error: 'no field with this label, name or id'}); continue; }
    let el = hits[0];
    try {
      if (el.type === 'radio') {
        const group = hits[0].name ? [...document.querySelectorAll('input[type=radio]')].filter(r => r.name === hits[0].name) : hits;
        const want = clean(String(value));
        el = group.find(r => clean(r.value) === want || labelOf(r).includes(want)) || (hits.length === 1 && truthy(value) ? hits[0] : null);
        if (!el) { results.push({field: key, ok: false, error: 'no radio option ' + JSON.stringify(value)}); continue; }
        el.click();
      } else if (el.type === 'checkbox') {
        if (el.checked !== truthy(value)) el.click();
      } else if (el.tagName === 'SELECT') {
        const want = clean(String(value));
        const opt = [...el.options].find(o => clean(o.value) === want || clean(o.text) === want) || [...el.options].find(o => clean(o.text).includes(want));
        if (!opt) { results.push({field: key, ok: false, error: 'no option ' + JSON.stringify(value) + '; options: ' + [...el.options].map(o => o.text.trim()).join(', ')}); continue; }
        el.value = opt.value;
        el.dispatchEvent(new Event('input', {bubbles: true}));
        el.dispatchEvent(new Event('change', {bubbles: true}));
      } else if (el.disabled || el.readOnly) {
        results.push({field: key, ok: false, error: 'the field is disabled or read-only'}); continue;
      } else {
        el.focus(); setValue(el, String(value));
      }
      form = form || el.form;
      results.push({field: key, matched: how, ok: true});
    } catch (e) { results.push({field: key, ok: false, error: String(e)}); }
  }
  let submitted = '';
  if (submit && results.every(r => r.ok)) {
    const f = form || document.forms[0];
    if (!f) submitted = 'no form to submit';
    else {
      const btn = f.querySelector('button[type=submit], input[type=submit], button:not([type])');
      if (btn) btn.click(); else f.requestSubmit();
      submitted = 'ok';
    }
  }
  return {results, submitted};
}`

// FillForm fills fields by label, name or id and optionally submits.
func (s *Session) FillForm(ctx context.Context, fields map[string]string, submit bool) ([]FieldResult, string, *Result, error) {
	var out struct {
		Results   []FieldResult `json:"results"`
		Submitted string        `json:"submitted"`
	}
	res, err := s.onPage(ctx, func(ctx context.Context, t *Tab) error {
		r, err := t.page.Context(ctx).Eval(fillJS, fields, submit)
		if err != nil {
			return fmt.Errorf("fill form: %w", err)
		}
		return json.Unmarshal([]byte(r.Value.JSON("", "")), &out)
	})
	return out.Results, out.Submitted, res, err
}

// Rendered is a page as the browser built it.
type Rendered struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	HTML  string `json:"-"`
}

// Render loads url in a throwaway isolated context and returns the DOM as
// HTML once the page settled (web_fetch's fallback for script-built pages).
func (m *Manager) Render(ctx context.Context, raw string) (*Rendered, error) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.NavigationTimeout+10*time.Second)
	defer cancel()
	s := &Session{m: m, key: "\x00render"}
	defer func() { s.mu.Lock(); s.closeContext(); s.mu.Unlock() }()
	var out *Rendered
	err := s.op(ctx, 0, func(ctx context.Context) error {
		if _, err := s.checkNavigation(ctx, raw); err != nil {
			return err
		}
		t, err := s.tab(ctx)
		if err != nil {
			return err
		}
		if _, err := t.navigate(ctx, raw); err != nil {
			return err
		}
		// Wait until the text stops growing (scripts rendering content).
		// Scripts often render after a timer or a fetch: require the text to
		// hold still for three checks (600 ms), for at most 5 s.
		_, _ = t.page.Context(ctx).Eval(`async () => {
  let last = -1, stable = 0;
  for (let i = 0; i < 25 && stable < 3; i++) {
    await new Promise(r => setTimeout(r, 200));
    const n = document.body ? document.body.innerText.length : 0;
    stable = (n === last && n > 0) ? stable + 1 : 0;
    last = n;
  }
}`)
		r, err := t.page.Context(ctx).Eval(`() => ({url: location.href, title: document.title, html: document.documentElement.outerHTML})`)
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		out = &Rendered{URL: r.Value.Get("url").Str(), Title: r.Value.Get("title").Str(), HTML: r.Value.Get("html").Str()}
		return nil
	})
	return out, err
}

var _ = proto.PageBringToFront{}
