package finance

import (
	"errors"

	"github.com/clawbridge/clawbridge/internal/config"
	"github.com/clawbridge/clawbridge/internal/zone"
)

// Config is the `tools.finance` section.
type Config struct {
	// Timezone is the IANA zone "today" and months are counted in ("": the system's).
	Timezone string `yaml:"timezone"`
	// Currency is the label shown beside amounts (the ledger has one currency).
	Currency string `yaml:"currency"`
	// Account is where an entry goes when a call names none.
	Account string `yaml:"account"`
	// MaxImportMB bounds a file read by import.
	MaxImportMB int `yaml:"max_import_mb"`
	// MaxList bounds the rows list returns at once.
	MaxList int `yaml:"max_list"`
}

// DefaultConfig: CNY, account "cash".
func DefaultConfig() Config {
	return Config{Currency: "CNY", Account: "cash", MaxImportMB: 20, MaxList: 500}
}

// Validate checks the section.
func (c *Config) Validate() error {
	_, zerr := zone.Load("timezone", c.Timezone)
	errs := []error{zerr, config.AtLeast("max_import_mb", c.MaxImportMB, 1), config.AtLeast("max_list", c.MaxList, 1)}
	if c.Currency == "" {
		errs = append(errs, errors.New("currency must not be empty"))
	}
	if c.Account == "" {
		errs = append(errs, errors.New("account must not be empty"))
	}
	return errors.Join(errs...)
}
