// outline.js builds the page's accessibility tree in one pass over the DOM
// (the flat tree: open shadow roots and slots included) and returns it as
// JSON for outline.go to render. Roles, names and states follow what
// Chromium's accessibility tree reports for the same elements, so the
// outline reads as before; it is computed here because serializing
// Chromium's full tree (every text box of every line) costs far more than
// the walk. Interactive nodes get refs, kept per document in a WeakMap so a
// node keeps its ref across snapshots; the counter comes from Go and never
// restarts within a tab.
//
// The version ("<document id>:<changes>") changes with every DOM mutation
// and form input; when it equals known the tree is not rebuilt (paging
// through a huge page reuses the outline Go already has).
(interactiveRoles, counter, known) => {
  const K = Symbol.for('clawbridge.refs');
  let st = window[K];
  if (!st) {
    st = {byEl: new WeakMap(), byRef: new Map(), id: Math.random().toString(36).slice(2), n: 0};
    const bump = () => { st.n++; };
    new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
    for (const ev of ['input', 'change', 'focusin', 'focusout']) document.addEventListener(ev, bump, true);
    Object.defineProperty(window, K, {value: st});
  }
  const ver = st.id + ':' + st.n;
  if (ver === known) return JSON.stringify({ver, url: location.href, title: document.title, counter});
  const interactive = new Set(interactiveRoles);
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;

  const sectioning = 'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';
  const nameFromContent = new Set(['button', 'link', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader',
    'option', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'treeitem', 'checkbox', 'radio',
    'switch', 'tooltip', 'DisclosureTriangle', 'term', 'MenuListOption']);
  const textTypes = new Set(['', 'text', 'email', 'tel', 'url', 'password', 'search', 'number',
    'date', 'datetime-local', 'month', 'time', 'week']);
  const tagRoles = {
    article: 'article', aside: 'complementary', nav: 'navigation', main: 'main', form: 'form',
    h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
    p: 'paragraph', blockquote: 'blockquote', ul: 'list', ol: 'list', menu: 'list', li: 'listitem',
    dl: 'DescriptionList', dt: 'term', dd: 'definition', hr: 'separator', br: 'LineBreak', button: 'button',
    summary: 'DisclosureTriangle', details: 'group', dialog: 'dialog', textarea: 'textbox',
    option: 'option', optgroup: 'group', label: 'LabelText', legend: 'Legend', fieldset: 'group',
    table: 'table', caption: 'caption', thead: 'rowgroup', tbody: 'rowgroup', tfoot: 'rowgroup',
    tr: 'row', td: 'cell', strong: 'strong', em: 'emphasis', code: 'code', mark: 'mark',
    time: 'time', del: 'deletion', s: 'deletion', ins: 'insertion', sub: 'subscript',
    sup: 'superscript', figure: 'figure', figcaption: 'Figcaption', progress: 'progressbar',
    meter: 'meter', output: 'status', iframe: 'Iframe', video: 'Video', audio: 'Audio',
    canvas: 'Canvas', math: 'math', search: 'search', svg: 'image', address: 'group',
    abbr: 'Abbr', pre: 'generic',
  };
  const skipTags = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'meta', 'link']);

  const tag = el => el.localName;
  const attr = (el, a) => { const v = el.getAttribute(a); return v == null ? '' : v.trim(); };
  // Form controls are the only elements :disabled, :user-invalid or
  // required apply to; the check is skipped for the rest (most of a page).
  const formTags = new Set(['button', 'input', 'select', 'textarea', 'option', 'optgroup', 'fieldset']);
  const disabled = el => formTags.has(tag(el)) && el.matches(':disabled');
  const focusable = el => tag(el) !== 'iframe' && !disabled(el) && (el.tabIndex >= 0 || el.hasAttribute('tabindex'));

  function implicitRole(el) {
    const t = tag(el);
    switch (t) {
      case 'a': case 'area': return el.hasAttribute('href') || el.hasAttribute('onclick') ? 'link' : 'generic';
      case 'header': return el.parentElement && el.parentElement.closest(sectioning) ? 'sectionheader' : 'banner';
      case 'footer': return el.parentElement && el.parentElement.closest(sectioning) ? 'sectionfooter' : 'contentinfo';
      case 'section': return attr(el, 'aria-label') || attr(el, 'aria-labelledby') || attr(el, 'title') ? 'region' : 'Section';
      case 'img': return el.getAttribute('alt') === '' && !attr(el, 'title') ? 'presentation' : 'image';
      case 'th': {
        const scope = attr(el, 'scope').toLowerCase();
        if (scope === 'row' || scope === 'rowgroup') return 'rowheader';
        if (scope === 'col' || scope === 'colgroup' || el.closest('thead')) return 'columnheader';
        const row = el.parentElement;
        return row && row.querySelector(':scope > td') ? 'rowheader' : 'columnheader';
      }
      case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'input': {
        const type = (el.getAttribute('type') || '').toLowerCase();
        switch (type) {
          case 'button': case 'submit': case 'reset': case 'image': case 'file': return 'button';
          case 'checkbox': return 'checkbox';
          case 'radio': return 'radio';
          case 'range': return 'slider';
          case 'number': return 'spinbutton';
          case 'color': return 'ColorWell';
          case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        }
        return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
    return tagRoles[t] || 'generic';
  }

  function roleOf(el) {
    const explicit = el.hasAttribute('role') ? attr(el, 'role').split(/\s+/)[0].toLowerCase() : '';
    if (explicit && !((explicit === 'none' || explicit === 'presentation') && focusable(el))) return explicit;
    return implicitRole(el);
  }

  // hidden reports whether el and its subtree are out of the tree.
  function hidden(el, cs, inSelect) {
    if (cs.display === 'none' || el.getAttribute('aria-hidden') === 'true' || el.inert) return true;
    if (inSelect || cs.display === 'contents') return false;
    return typeof el.checkVisibility === 'function' && !el.checkVisibility();
  }

  function kids(node) {
    if (node.nodeType === 1) {
      if (node.shadowRoot) return node.shadowRoot.childNodes;
      if (tag(node) === 'slot') {
        const a = node.assignedNodes({flatten: true});
        return a.length ? a : node.childNodes;
      }
    }
    return node.childNodes;
  }

  // generated is the text of an element's ::before or ::after content (its
  // alternative text when given: content: "★" / "Star"); counters, attr()
  // and images are left out.
  function generated(el, pseudo) {
    const c = getComputedStyle(el, pseudo).content;
    if (!c || c === 'none' || c === 'normal' || c[0] !== '"') return '';
    const slash = c.lastIndexOf(' / ');
    const src = slash > 0 && c[slash + 3] === '"' ? c.slice(slash + 3) : c;
    let out = '';
    for (const m of src.matchAll(/"((?:[^"\\]|\\.)*)"/g)) out += m[1].replace(/\\(.)/g, '$1');
    return out;
  }

  function controlValue(el) {
    const t = tag(el);
    if (t === 'select') {
      if (el.multiple || el.size > 1) return null;
      const o = el.selectedOptions && el.selectedOptions[0];
      return o ? o.label || o.textContent : '';
    }
    if (t === 'textarea') return el.value;
    if (t === 'input') {
      const type = (el.getAttribute('type') || '').toLowerCase();
      if (type === 'password') return '•'.repeat(el.value.length);
      if (type === 'file') return el.files && el.files.length ? [...el.files].map(f => f.name).join(', ') : 'No file chosen';
      if (textTypes.has(type) || type === 'range' || type === 'color') return el.value;
    }
    return null;
  }

  // text is the text content of node for a name computed from content,
  // leaving out hidden parts and the element being named (a control inside
  // its own label).
  function text(node, self, visited) {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1 && node.nodeType !== 11) return '';
    if (node.nodeType === 1) {
      if (node === self || skipTags.has(tag(node)) || visited.has(node)) return '';
      visited.add(node);
      const cs = getComputedStyle(node);
      if (hidden(node, cs, !!node.closest('select')) || cs.visibility !== 'visible' && !node.closest('select')) return '';
      const label = attr(node, 'aria-label');
      if (label) return label;
      const v = controlValue(node);
      if (v != null) return v;
      if (tag(node) === 'img' || tag(node) === 'area') return node.getAttribute('alt') || '';
      const block = cs.display !== 'inline' && cs.display !== 'contents';
      let s = generated(node, '::before');
      for (const c of kids(node)) s += text(c, self, visited);
      s += generated(node, '::after');
      return block ? ' ' + s + ' ' : s;
    }
    let s = '';
    for (const c of kids(node)) s += text(c, self, visited);
    return s;
  }
  // squash collapses white space; most text needs nothing, and testing is
  // cheaper than replacing on a long page.
  // cap keeps what the outline can show (Go cuts text at 2,000 runes, names
  // at 150) without sending a multi-megabyte text node or field whole.
  const cap = (s, n) => s.length > n ? s.slice(0, n) : s;
  const squash = s => /\s\s|[^\S ]|^\s|\s$/.test(s) ? s.replace(/\s+/g, ' ').trim() : s;
  const content = (el, self) => squash(text(el, self, new Set()));
  function byIds(el, a) {
    const ids = attr(el, a).split(/\s+/).filter(Boolean);
    const root = el.getRootNode();
    return squash(ids.map(id => {
      const t = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      if (!t) return '';
      // A hidden element still names what points at it.
      const own = attr(t, 'aria-label') || squash(text(t, null, new Set()));
      return own || squash(t.textContent);
    }).join(' '));
  }
  function childText(el, childTag) {
    for (const c of el.children) if (tag(c) === childTag) return content(c, null);
    return '';
  }

  function nameOf(el, role) {
    if (el.hasAttribute('aria-labelledby')) {
      const n = byIds(el, 'aria-labelledby');
      if (n) return n;
    }
    const label = attr(el, 'aria-label');
    if (label) return label;
    const t = tag(el);
    const type = t === 'input' ? (el.getAttribute('type') || '').toLowerCase() : '';
    if (t === 'input' && (type === 'button' || type === 'submit' || type === 'reset')) {
      return el.value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    }
    if (t === 'input' && type === 'image') return attr(el, 'alt') || el.value || 'Submit';
    if ((t === 'input' || t === 'select' || t === 'textarea') && el.labels && el.labels.length) {
      const n = squash([...el.labels].map(l => content(l, el)).join(' '));
      if (n) return n;
    }
    if (t === 'img' || t === 'area') { const alt = attr(el, 'alt'); if (alt) return alt; }
    if (t === 'fieldset') { const n = childText(el, 'legend'); if (n) return n; }
    if (t === 'table') { const n = childText(el, 'caption'); if (n) return n; }
    if (t === 'svg') { for (const c of el.children) if (tag(c) === 'title' && squash(c.textContent)) return squash(c.textContent); }
    if ((t === 'option' || t === 'optgroup') && el.label) return squash(el.label);
    if (nameFromContent.has(role) || t === 'summary') { const n = content(el, null); if (n) return n; }
    const title = attr(el, 'title');
    if (title) return title;
    if ((t === 'input' || t === 'textarea') && attr(el, 'placeholder')) return attr(el, 'placeholder');
    return '';
  }

  function states(el, role) {
    const p = {};
    const t = tag(el);
    const any = el.hasAttributes();
    const aria = a => { if (!any) return ''; const v = attr(el, a).toLowerCase(); return v && v !== 'undefined' ? v : ''; };
    if (role === 'heading') p.level = aria('aria-level') || (/^h[1-6]$/.test(t) ? t[1] : '2');
    if (t === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      p.checked = el.indeterminate ? 'mixed' : String(el.checked);
    } else if (aria('aria-checked')) p.checked = aria('aria-checked');
    if (aria('aria-pressed')) p.pressed = aria('aria-pressed');
    if (t === 'option') p.selected = String(el.selected);
    else if (aria('aria-selected')) p.selected = aria('aria-selected');
    if (aria('aria-expanded')) p.expanded = aria('aria-expanded');
    else if (t === 'summary' && el.parentElement && tag(el.parentElement) === 'details') p.expanded = String(el.parentElement.open);
    const form = formTags.has(t);
    if (aria('aria-disabled') === 'true' || form && t !== 'fieldset' && el.matches(':disabled')) p.disabled = 'true';
    if (form && el.required || aria('aria-required') === 'true') p.required = 'true';
    if ((t === 'textarea' || t === 'input' && textTypes.has((el.getAttribute('type') || '').toLowerCase())) && el.readOnly || aria('aria-readonly') === 'true') p.readonly = 'true';
    const inv = aria('aria-invalid');
    if (inv && inv !== 'false') p.invalid = inv;
    else if (form) { try { if (el.matches(':user-invalid')) p.invalid = 'true'; } catch (e) {} }
    if (el === active && el !== document.body) p.focused = 'true';
    if (aria('aria-modal') === 'true') p.modal = 'true';
    else if (t === 'dialog') { try { if (el.matches(':modal')) p.modal = 'true'; } catch (e) {} }
    if (focusable(el)) p.focusable = 'true';
    return p;
  }

  function value(el, role) {
    const v = controlValue(el);
    if (v != null && (role !== 'button' || el.type === 'file')) return v;
    if ((role === 'slider' || role === 'spinbutton' || role === 'progressbar' || role === 'meter' || role === 'scrollbar')) {
      if (attr(el, 'aria-valuetext')) return attr(el, 'aria-valuetext');
      if (attr(el, 'aria-valuenow')) return attr(el, 'aria-valuenow');
      if ('value' in el && (tag(el) === 'progress' || tag(el) === 'meter')) return String(el.value);
    }
    return '';
  }

  function refOf(el) {
    let ref = st.byEl.get(el);
    if (!ref) {
      ref = 'e' + (++counter);
      st.byEl.set(el, ref);
      st.byRef.set(ref, new WeakRef(el));
    }
    return ref;
  }

  // visit appends the tree nodes of node to out; hidden or generic wrappers
  // that are skipped pass their children up.
  function visit(node, out, vis, inSelect) {
    if (node.nodeType === 3) {
      if (vis && /\S/.test(node.data)) out.push({r: 'StaticText', n: squash(cap(node.data, 8000))});
      return;
    }
    if (node.nodeType === 11) {
      for (const c of kids(node)) visit(c, out, vis, inSelect);
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node;
    const t = tag(el);
    if (skipTags.has(t) || t === 'input' && el.type === 'hidden') return;
    const cs = getComputedStyle(el);
    if (hidden(el, cs, inSelect)) return;
    const shown = inSelect || cs.visibility === 'visible';
    if (!shown) {
      for (const c of kids(el)) visit(c, out, false, inSelect);
      return;
    }
    let role = 'generic', n = {r: role}, name = '', p = {};
    try {
      role = roleOf(el);
      n = {r: role};
      name = role === 'generic' && !attr(el, 'aria-label') && !attr(el, 'aria-labelledby') ? '' : nameOf(el, role);
      if (name) n.n = cap(name, 2000);
      const v = value(el, role);
      if (v) n.v = cap(v, 2000);
      p = states(el, role);
      for (const k in p) { n.p = p; break; }
      if (interactive.has(role) || p.focusable === 'true' && name) n.ref = refOf(el);
    } catch (e) {
      // An element this code does not understand still passes its content on.
      role = 'generic'; n = {r: role}; name = ''; p = {};
    }
    const c = [];
    if (t === 'li' && cs.listStyleType === 'decimal' && el.parentElement && tag(el.parentElement) === 'ol') {
      // Chromium shows the number of an ordered item (bullets say nothing).
      let num = el.parentElement.start || 1;
      for (const s of el.parentElement.children) { if (s === el) break; if (tag(s) === 'li') num++; }
      c.push({r: 'ListMarker', n: (el.hasAttribute('value') ? el.value : num) + '.'});
    }
    if (t === 'select' || t === 'optgroup') {
      for (const k of el.children) visit(k, c, true, true);
    } else if (t === 'label' && el.control && (el.control.type === 'checkbox' || el.control.type === 'radio')) {
      // As in Chromium, the label of a checkbox or radio is its name only:
      // its controls stay, its text goes.
      for (const k of kids(el)) visit(k, c, false, inSelect);
      for (const k of c) out.push(k);
      return;
    } else if (t !== 'input' && t !== 'textarea' && t !== 'iframe') {
      const before = generated(el, '::before'), after = generated(el, '::after');
      if (/\S/.test(before)) c.push({r: 'StaticText', n: squash(before)});
      for (const k of kids(el)) visit(k, c, true, inSelect);
      if (/\S/.test(after)) c.push({r: 'StaticText', n: squash(after)});
    }
    if (c.length) n.c = c;
    if (role === 'generic' && !name && p.focusable !== 'true') { for (const k of c) out.push(k); return; }
    out.push(n);
  }

  const root = {r: 'RootWebArea', c: []};
  visit(document.documentElement, root.c, true, false);
  return JSON.stringify({ver, url: location.href, title: document.title, counter, root});
}
