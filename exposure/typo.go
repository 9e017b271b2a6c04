package exposure

// Typos: an English keyword typed with an inner vowel or one of a doubled
// letter missing ("remnd", "wether", "pasword") or two neighbouring letters swapped ("emial") still
// counts as the keyword. Only words of five letters or more that match no
// pattern as typed are looked up, in one map of the keywords' variants
// built with the detector, so a typo costs one lookup per unmatched long
// word. A variant that is itself a pattern, or the variant of two
// keywords, is not a typo of either. Substitutions are not tolerated: one
// changed letter too often makes another real word ("story" -> "store").

// typoMinLen is the shortest typed word looked up (shorter words' variants
// are too often real words).
const typoMinLen = 5

// typoVariants maps each variant of the keyword patterns that are one
// English word (one inner letter dropped, two neighbours swapped; at least
// typoMinLen letters) to the patterns of that word ("email" and "email*"
// are two); an empty list marks a variant of two different words.
func typoVariants(pats []pattern, kwPats int32) map[string][]int32 {
	exact := make(map[string]bool, len(pats))
	for _, p := range pats {
		exact[p.text] = true
	}
	out := map[string][]int32{}
	add := func(v string, id int32) {
		if len(v) < typoMinLen || exact[v] {
			return
		}
		ids, ok := out[v]
		switch {
		case !ok:
			out[v] = []int32{id}
		case len(ids) > 0 && pats[ids[0]].text == pats[id].text:
			out[v] = appendNew(ids, id)
		default:
			out[v] = []int32{}
		}
	}
	for id := int32(0); id < kwPats; id++ {
		w := pats[id].text
		if len(w) < typoMinLen || !allLetters(w) {
			continue
		}
		for i := range len(w) {
			// Only an inner vowel or one of a doubled letter goes missing
			// ("wether", "remnd", "pasword"): without its first or last
			// letter, or another consonant, a word is too often another one
			// ("orders" -> "order", "median" -> "media", "contract" ->
			// "contact").
			if i > 0 && i < len(w)-1 && (isVowel(w[i]) || w[i] == w[i-1] || w[i] == w[i+1]) {
				add(w[:i]+w[i+1:], id)
			}
			if i+1 < len(w) && w[i] != w[i+1] {
				add(w[:i]+string(w[i+1])+string(w[i])+w[i+2:], id)
			}
		}
	}
	return out
}

func isVowel(b byte) bool { return b == 'a' || b == 'e' || b == 'i' || b == 'o' || b == 'u' }

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// appendTypos appends an occurrence for every word of norm that is a typo
// of a keyword and that no occurrence of occ starts at.
func (d *Detector) appendTypos(norm []byte, occ []occurrence) []occurrence {
	n := len(occ)
	for i := 0; i < len(norm); {
		if norm[i] < 'a' || norm[i] > 'z' || (i > 0 && isWordByte(norm[i-1])) {
			i++
			continue
		}
		j := i
		for j < len(norm) && norm[j] >= 'a' && norm[j] <= 'z' {
			j++
		}
		if j-i >= typoMinLen && (j == len(norm) || !isWordByte(norm[j])) {
			if ids := d.typo[string(norm[i:j])]; len(ids) > 0 && !startsAt(occ[:n], int32(i)) {
				for _, id := range ids {
					occ = append(occ, occurrence{pat: id, start: int32(i), end: int32(j)})
				}
			}
		}
		i = j
	}
	return occ
}

func startsAt(occ []occurrence, at int32) bool {
	for _, o := range occ {
		if o.start == at {
			return true
		}
	}
	return false
}
