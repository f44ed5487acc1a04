# Reel: the two commands a newcomer needs are `make demo` (run it) and `make test`.
# Every target that builds first runs scripts/setup.sh, which installs the Debian packages
# in scripts/packages.txt when they are missing and is silent otherwise.

SWIFT ?= swift
# The release build directory; asked of SwiftPM when a recipe runs, not when make starts.
RELEASE_BIN = $$($(SWIFT) build -c release --show-bin-path)

.PHONY: all setup build test tsan demo bench install uninstall clean

all: build

setup:
	@bash scripts/setup.sh
	@bash scripts/fetch-model.sh

build: setup
	$(SWIFT) build -c release --product reel

# Integration tests run the optimized binary through REEL_BIN. Tests run one at a time
# (--no-parallel): several of them run in real time and must not starve each other.
test: build
	REEL_BIN="$(RELEASE_BIN)/reel" $(SWIFT) test --no-parallel

# ThreadSanitizer over the concurrency-heavy suites: the runtime (queues, fan-out, clocks,
# threads), the recorder and the live pipeline in process, and the origin server. A separate
# build folder (TSan instruments everything); a data race fails the run. Tests that run the
# `reel` binary in real time are left out: instrumented, it is too slow for a real-time camera.
TSAN_SUITES ?= ReelRuntimeTests|StudyRecorderTests|RecordingSupervisorTests|ArchiveBranchTests|HLSBranchTests|HLSPublisherTests|DirectoryTargetTests|HTTPOriginTargetTests|OriginAtomicityTests|OriginFileDeleteTests|OriginResponseCacheTests|OriginServerTests|OriginSlowClientTests|OriginFuzzTests
tsan: setup
	$(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(SWIFT) test --skip-build --sanitize=thread \
		--build-path .build-tsan --no-parallel --filter '$(TSAN_SUITES)'

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
