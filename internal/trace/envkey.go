package trace

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Environment values are recorded as keyed hashes (docs/FORMAT.md,
// "Inputs"): HMAC-SHA-256 of the value under a key of the user's, cut to
// 64 bits. The key is 32 random bytes made on first use and kept outside
// every trace, readable by the user only, in the user's configuration
// directory; the trace names it by an id that says nothing of it. A trace
// sent to someone else then lets them tell whether two runs of the same
// user had the same value of a variable, which is what diff needs, and
// nothing more: without the key, trying values against a hash needs the
// key too (an unkeyed hash of PIN=4821 came back in 18 ms by trying all
// 10,000).

// EnvScheme is how a trace recorded the environment's values.
type EnvScheme uint8

const (
	// EnvFNV is the scheme of traces from before keyed hashes: 64-bit
	// FNV-1a of the value, the same for everyone, so a short value can be
	// found again from its hash. Read, never written.
	EnvFNV EnvScheme = 0
	// EnvKeyed is HMAC-SHA-256 under the user's key, cut to 64 bits;
	// Inputs.EnvKeyID names the key.
	EnvKeyed EnvScheme = 1
	// EnvNames is no values at all, only names: the run had no key (no
	// configuration directory it could read or write).
	EnvNames EnvScheme = 2
)

// envKeySize is the key's length in bytes.
const envKeySize = 32

// EnvKeyFile is where the user's key is kept: divergo/env.key under
// os.UserConfigDir ($XDG_CONFIG_HOME or ~/.config on Linux).
func EnvKeyFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "divergo", "env.key"), nil
}

// LoadEnvKey reads the user's key, making it first when there is none.
// Several runs starting at once (divergo test runs tests in parallel) get
// the same key: it is written to a file of its own and linked into place,
// which fails for all but one of them, and the others read the winner's.
func LoadEnvKey() ([]byte, error) {
	path, err := EnvKeyFile()
	if err != nil {
		return nil, fmt.Errorf("no place for the environment key: %w", err)
	}
	for range 50 {
		key, err := readEnvKey(path)
		if err == nil || !errors.Is(err, os.ErrNotExist) {
			return key, err
		}
		if err := makeEnvKey(path); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("making the environment key: %w", err)
		}
	}
	return nil, errors.New("the environment key is being made by another process and is not there yet")
}

// readEnvKey reads the key at path. A key of another length is an error,
// except an empty file, which another process is still writing: that is
// os.ErrNotExist after a short wait.
func readEnvKey(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, envKeySize+1))
	if err != nil {
		return nil, err
	}
	switch len(key) {
	case envKeySize:
		return key, nil
	case 0:
		time.Sleep(time.Millisecond)
		return nil, os.ErrNotExist
	}
	return nil, fmt.Errorf("%s holds %d bytes, not a key of %d: remove it and a new one is made", path, len(key), envKeySize)
}

// makeEnvKey writes a new key at path unless one is there.
func makeEnvKey(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	key := make([]byte, envKeySize)
	if _, err := rand.Read(key); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".env.key-*") // mode 0600
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// A link does not replace a key another process put there first.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return err
		}
		// No hard links here: a file made exclusively, written after.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := f.Write(key); err != nil {
			f.Close()
			os.Remove(path)
			return err
		}
		return f.Close()
	}
	return nil
}

// HashEnvKeyed is the hash a value is recorded by under key (EnvKeyed).
func HashEnvKeyed(key []byte, value string) uint64 {
	m := hmac.New(sha256.New, key)
	io.WriteString(m, value)
	return binary.LittleEndian.Uint64(m.Sum(nil))
}

// EnvKeyID names key in a trace: 64 bits of a hash of it, from which the
// key cannot be had, so that two traces are known to have hashed their
// values under the same key or not.
func EnvKeyID(key []byte) uint64 {
	s := sha256.Sum256(append([]byte("divergo environment key id\x00"), key...))
	return binary.LittleEndian.Uint64(s[:])
}
