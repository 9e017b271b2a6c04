module github.com/clawbridge/clawbridge

go 1.26.0

require (
	codeberg.org/readeck/go-readability/v2 v2.1.3 // web_fetch: main-content extraction (maintained readability port, MIT)
	github.com/JohannesKaufmann/html-to-markdown/v2 v2.5.2 // web_fetch, format_converter: HTML to Markdown (MIT)
	github.com/alecthomas/chroma/v2 v2.27.0 // format_converter: code highlighting in md->html/pdf (MIT)
	github.com/arran4/golang-ical v0.3.4 // calendar: RFC 5545 parsing and serialisation, maintained (Apache-2.0)
	github.com/aymanbagabas/go-udiff v0.4.2 // coding_assistant: unified diffs, a maintained copy of gopls' diff package with context size (MIT/BSD-3); pmezard/go-difflib is archived and sergi/go-diff writes no unified diff with context
	github.com/blevesearch/bleve/v2 v2.6.3 // knowledge_rag: on-disk full-text index with BM25 scoring and a CJK bigram filter, safe for searches during batches (Apache-2.0); the exposure BM25 is in-memory only, with no persistence, incremental deletes or term locations for snippets
	github.com/blevesearch/bleve_index_api v1.4.1 // knowledge_rag: bleve's scoring-model names (BM25) (Apache-2.0)
	github.com/emersion/go-sasl v0.0.0-20241020182733-b788ff22d5a6 // tests only: SASL for the go-smtp test server (MIT)
	github.com/emersion/go-smtp v0.25.1 // tests only: the real SMTP server the email tests send to, STARTTLS and AUTH (MIT)
	github.com/fzipp/gocyclo v0.6.0 // tests only: the reference cyclomatic complexity coding_assistant's Go analysis must agree with (BSD-3)
	github.com/go-rod/rod v0.116.2 // browser: Chromium over CDP, system browser only (MIT)
	github.com/go-sql-driver/mysql v1.10.1 // db_query: MySQL connections (MPL-2.0, unmodified)
	github.com/gogs/chardet v0.0.0-20211120154057-b7413eaefb8f // web_fetch: charset detection for undeclared pages (MIT)
	github.com/itchyny/gojq v0.12.20 // coding_assistant: jq queries, pure Go, no environment or file access unless given (MIT)
	github.com/jackc/pgx/v5 v5.12.0 // db_query: PostgreSQL with read-only transactions (MIT)
	github.com/mark3labs/mcp-go v1.2.1 // server: MCP protocol, stdio/SSE/streamable HTTP (MIT)
	github.com/pdfcpu/pdfcpu v0.15.0 // pdf_tool: PDF processing, pure Go (Apache-2.0)
	github.com/prometheus/client_golang v1.25.0 // server: /metrics, the Prometheus project's own client (registry, counters, histograms, text exposition) (Apache-2.0); v1.25.0 is the newest the Go proxy serves that builds on Go 1.26 (go-partial.tsv)
	github.com/prometheus/client_model v0.6.3 // tests only: the parsed metric families of the /metrics test (Apache-2.0); also client_golang's own dependency
	github.com/prometheus/common v0.73.1 // tests only: expfmt, the Prometheus text parser the /metrics test reads the scrape with (Apache-2.0); also client_golang's own dependency
	github.com/robfig/cron/v3 v3.0.1 // cron: 5-field expressions and descriptors; the scheduler, leases and persistence are ours (MIT)
	github.com/rs/zerolog v1.35.1 // logging and audit lines (MIT)
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // resume_builder: JSON Resume schema validation (Apache-2.0)
	github.com/shirou/gopsutil/v4 v4.26.10 // system: processes, ports, disks, memory (BSD-3)
	github.com/shopspring/decimal v1.6.0 // financial_report: exact money arithmetic (MIT)
	github.com/teambition/rrule-go v1.8.2 // calendar: RRULE expansion in the event's zone, for series and VTIMEZONE rules (MIT)
	github.com/wneessen/go-mail v0.8.1 // email: MIME composition and SMTP (STARTTLS/TLS, PLAIN/LOGIN), maintained (MIT); v0.8.1 because v0.8.2 needs Go 1.27
	github.com/xuri/excelize/v2 v2.11.1 // data tools, format_converter: xlsx streaming read/write and charts (BSD-3)
	github.com/yuin/goldmark v1.8.7 // Markdown parsing for md->html/docx/pptx (MIT)
	go.uber.org/goleak v1.3.0 // tests only: TestMain goroutine-leak checks in server and browser (MIT); waits for goroutines to end and names the leak
	golang.org/x/image v0.48.0 // charts, mind maps, image conversion, font rendering (BSD-3)
	golang.org/x/net v0.62.0 // HTML parsing and charset handling (BSD-3)
	golang.org/x/text v0.44.0 // GBK/GB18030 decoding (BSD-3)
	gopkg.in/yaml.v3 v3.0.1 // config file (MIT/Apache-2.0)
	modernc.org/sqlite v1.62.0 // the store and the data query engine, pure Go, no cgo (BSD-3)
)

require (
	filippo.io/edwards25519 v1.2.0 // indirect
	github.com/JohannesKaufmann/dom v0.3.1 // indirect
	github.com/andybalholm/cascadia v1.3.4 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/ebitengine/purego v0.11.2 // indirect
	github.com/go-ole/go-ole v1.2.6 // indirect
	github.com/go-shiori/dom v0.0.0-20230515143342-73569d674e1c // indirect
	github.com/google/jsonschema-go v0.4.2 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hhrutter/tiff v1.0.6 // indirect
	github.com/itlightning/dateparse v0.2.1 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/lufia/plan9stats v0.0.0-20211012122336-39d0f177ccd0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mattn/go-runewidth v0.0.31 // indirect; pinned: from v0.0.31 its width tables are built on first use, not at init (16 ms of every start, through pdfcpu)
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/power-devops/perfstat v0.0.0-20260805114148-88456608a4f6 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/richardlehane/mscfb v1.0.9 // indirect
	github.com/richardlehane/msoleps v1.0.6 // indirect
	github.com/spf13/cast v1.7.1 // indirect
	github.com/tiendc/go-deepcopy v1.7.2 // indirect
	github.com/tklauser/go-sysconf v0.4.0 // indirect
	github.com/tklauser/numcpus v0.12.0 // indirect
	github.com/xuri/efp v0.0.3-0.20260924042702-217b81952dec // indirect
	github.com/xuri/nfp v0.0.2-0.20250530014748-2ddeb826f9a9 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	github.com/ysmood/fetchup v0.2.3 // indirect
	github.com/ysmood/goob v0.4.0 // indirect
	github.com/ysmood/got v0.40.0 // indirect
	github.com/ysmood/gson v0.7.3 // CDP call arguments for the outline in its isolated world (already required by go-rod)
	github.com/ysmood/leakless v0.9.0 // indirect
	github.com/yusufpapurcu/wmi v1.2.4 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	modernc.org/libc v1.80.1 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)

require (
	github.com/disintegration/imaging v1.6.2 // image_generator: resize, crop, rotate, encode (MIT)
	github.com/makiuchi-d/gozxing v0.1.1 // image_generator: reads every QR code back, pure Go (MIT)
	github.com/skip2/go-qrcode v0.0.0-20200617195104-da1b6568686e // image_generator: QR encoding, no dependencies (MIT)
)

require (
	github.com/RoaringBitmap/roaring/v2 v2.14.5 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/bits-and-blooms/bitset v1.24.2 // indirect
	github.com/blevesearch/geo v0.2.8 // indirect
	github.com/blevesearch/go-faiss v1.1.5 // indirect
	github.com/blevesearch/go-porterstemmer v1.0.3 // indirect
	github.com/blevesearch/gtreap v0.1.1 // indirect
	github.com/blevesearch/mmap-go v1.2.0 // indirect
	github.com/blevesearch/scorch_segment_api/v2 v2.4.11 // indirect
	github.com/blevesearch/segment v0.9.1 // indirect
	github.com/blevesearch/snowballstem v0.9.0 // indirect
	github.com/blevesearch/upsidedown_store_api v1.0.2 // indirect
	github.com/blevesearch/vellum v1.2.1 // indirect
	github.com/blevesearch/zapx/v11 v11.4.3 // indirect
	github.com/blevesearch/zapx/v12 v12.4.3 // indirect
	github.com/blevesearch/zapx/v13 v13.4.3 // indirect
	github.com/blevesearch/zapx/v14 v14.4.3 // indirect
	github.com/blevesearch/zapx/v15 v15.4.3 // indirect
	github.com/blevesearch/zapx/v16 v16.3.4 // indirect
	github.com/blevesearch/zapx/v17 v17.2.5 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/itchyny/timefmt-go v0.1.9 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/mschoch/smat v0.2.0 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/pandatix/go-abnf v0.5.3 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	go.etcd.io/bbolt v1.4.0 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
