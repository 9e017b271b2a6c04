package pdf

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// AES-256 files (revisions 5 and 6) whose owner password is empty: qpdf
// --encrypt USER "" makes them, and poppler, qpdf and pypdf open them with
// no password, as the owner (ISO 32000-2 7.6.4.4: a password is tried as
// the owner's first). pdfcpu never tries an empty owner password for
// AES-256 and asks for the user password instead. openEmptyOwner checks
// the empty owner password itself and, when it is right, rewrites /U and
// /UE (in memory, an incremental update) so that the empty user password
// unlocks the same file key: pdfcpu then opens the file, and everything it
// decrypts is unchanged. Other files are returned unchanged, ok false.
func openEmptyOwner(data []byte) ([]byte, bool) {
	e, found := findEncrypt(data)
	if !found {
		return data, false
	}
	r := e.dict.IntEntry("R")
	if r == nil || (*r != 5 && *r != 6) {
		return data, false
	}
	o, u, oe := encBytes(e.dict["O"]), encBytes(e.dict["U"]), encBytes(e.dict["OE"])
	if len(o) < 48 || len(u) < 48 || len(oe) < 32 {
		return data, false
	}
	h := func(salt, udata []byte) []byte { return hashR6(nil, salt, udata) }
	if *r == 5 {
		h = func(salt, udata []byte) []byte {
			s := sha256.Sum256(append(append([]byte{}, salt...), udata...))
			return s[:]
		}
	}
	if !bytes.Equal(h(o[32:40], u[:48]), o[:32]) {
		return data, false // the owner password is not empty
	}
	fileKey, ok := aesNoPad(h(o[40:48], u[:48]), oe[:32], false)
	if !ok {
		return data, false
	}
	// The new user entries for the empty password, with the old salts.
	vs, ks := u[32:40], u[40:48]
	newU := append(append(h(vs, nil), vs...), ks...)
	newUE, ok := aesNoPad(h(ks, nil), fileKey, true)
	if !ok {
		return data, false
	}
	e.dict["U"] = types.HexLiteral(hex.EncodeToString(newU))
	e.dict["UE"] = types.HexLiteral(hex.EncodeToString(newUE))
	return e.revise(data), true
}

// encBytes is the bytes of a string entry of the encryption dictionary.
func encBytes(o types.Object) []byte {
	switch x := o.(type) {
	case types.StringLiteral:
		b, _ := types.Unescape(x.Value())
		return b
	case types.HexLiteral:
		b, _ := x.Bytes()
		return b
	}
	return nil
}

// aesNoPad runs AES-256-CBC with a zero IV and no padding (the /OE and /UE
// key wrapping of ISO 32000-2 7.6.4.3).
func aesNoPad(key, in []byte, encrypt bool) ([]byte, bool) {
	block, err := aes.NewCipher(key)
	if err != nil || len(in)%aes.BlockSize != 0 {
		return nil, false
	}
	out := make([]byte, len(in))
	iv := make([]byte, aes.BlockSize)
	if encrypt {
		cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, in)
	} else {
		cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, in)
	}
	return out, true
}

// hashR6 is algorithm 2.B of ISO 32000-2 (revision 6 password hash).
func hashR6(pw, salt, udata []byte) []byte {
	k0 := sha256.Sum256(append(append(append([]byte{}, pw...), salt...), udata...))
	k := k0[:]
	for i := 1; ; i++ {
		unit := append(append(append([]byte{}, pw...), k...), udata...)
		k1 := bytes.Repeat(unit, 64)
		block, _ := aes.NewCipher(k[:16])
		e := make([]byte, len(k1))
		cipher.NewCBCEncrypter(block, k[16:32]).CryptBlocks(e, k1)
		sum := 0
		for _, c := range e[:16] {
			sum += int(c)
		}
		var hf hash.Hash
		switch sum % 3 {
		case 0:
			hf = sha256.New()
		case 1:
			hf = sha512.New384()
		default:
			hf = sha512.New()
		}
		hf.Write(e)
		k = hf.Sum(nil)
		if i >= 64 && int(e[len(e)-1]) <= i-32 {
			break
		}
	}
	return k[:32]
}
