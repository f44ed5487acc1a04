# Reel: the two commands a newcomer needs are `make demo` (run it) and `make test`.
# Every target that builds first runs scripts/setup.sh, which installs the Debian packages
# in scripts/packages.txt when they are missing and is silent otherwise.

SWIFT ?= swift
# The release build directory; asked of SwiftPM when a recipe runs, not when make starts.
RELEASE_BIN = $$($(SWIFT) build -c release --show-bin-path)

.PHONY: all setup build build-info test demo bench install uninstall clean

all: build

setup:
	@bash scripts/setup.sh
	@bash scripts/fetch-model.sh

# The commit `reel --version` names lives in Sources/CBuildInfo/commit.h (not in git) only while
# this release build runs: build-info writes it and touches build_info.c, and it is removed (and
# build_info.c touched again) afterwards, so a later plain `swift build` says "unknown" instead of
# a commit it was not built from. Each `make build` recompiles that one C file and relinks;
# nothing else. "-dirty" when tracked files differ from the commit; "unknown" outside git.
BUILD_INFO = Sources/CBuildInfo/commit.h
build: setup build-info
	@status=0; $(SWIFT) build -c release --product reel || status=$$?; \
	rm -f $(BUILD_INFO); touch Sources/CBuildInfo/build_info.c; exit $$status

build-info:
	@commit=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	if [ "$$commit" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then commit="$$commit-dirty"; fi; \
	echo "#define REEL_BUILD_COMMIT \"$$commit\"" > $(BUILD_INFO); touch Sources/CBuildInfo/build_info.c

# Integration tests run the optimized binary through REEL_BIN. Tests run one at a time
# (--no-parallel): several of them run in real time and must not starve each other.
test: build
	REEL_BIN="$(RELEASE_BIN)/reel" $(SWIFT) test --no-parallel

demo: build
	REEL_BIN="$(RELEASE_BIN)/reel" bash scripts/demo.sh

bench: build
	@if [ -x bench/run.sh ] || [ -f bench/run.sh ]; then \
		REEL_BIN="$(RELEASE_BIN)/reel" bash bench/run.sh; \
	else \
		echo "bench: bench/run.sh does not exist yet; nothing to measure." >&2; exit 1; \
	fi

# Installs the release binary to $(PREFIX)/bin (default ~/.local/bin, where the README's systemd
# units look); `make setup` (run by build) has already put the face model in the user's XDG data
# folder. DESTDIR is honoured for packaging. Shell completion and the man page join here once
# they exist.
PREFIX ?= $(HOME)/.local
install: build
	install -D -m 0755 "$(RELEASE_BIN)/reel" "$(DESTDIR)$(PREFIX)/bin/reel"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/reel"; \
	case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on PATH";; esac

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/reel"

clean:
	$(SWIFT) package clean
	rm -rf .build out
