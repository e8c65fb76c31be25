# eventd — build, test, run.
#   make run    build (release), import sample-calendars/ into the default database, show the agenda,
#               start eventd and the dashboard (eventd-web, http://127.0.0.1:8787/)
#   make test   install what is missing, build, run every test (including the differential tests)
#   make deb    eventd_VERSION_ARCH.deb: self-contained binaries, units, man pages (sudo apt install ./eventd_*.deb)

SWIFT        ?= swift
PYTHON       ?= python3
VENV         := .venv
DEB_PACKAGES := libical-dev libsqlite3-dev libssl-dev libcurl4-openssl-dev pkg-config sqlite3 faketime chromium chromium-driver libsystemd-dev dbus-daemon libnotify-bin redis-server libhiredis-dev libncurses-dev zlib1g-dev fonts-wqy-microhei
RELEASE_BIN  := .build/release
# Debian's packaging tools: installed by `make deb` only, so `make run` does not wait for them.
DEB_BUILD_PACKAGES := debhelper dpkg-dev fakeroot lintian
# The shipped binary: eventd, eventctl and eventd-web as one multi-call program (links
# named eventctl and eventd-web) with the Swift runtime and Foundation linked in once,
# built in a scratch path of its own so that it never invalidates .build/release.
STATIC_BIN   := .build-static/multicall

.PHONY: all deps venv build release release-static deb test run bench clean install uninstall stress fuzz completions man version

all: build

## deps: install missing Debian packages (as root), or say what to install.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || exit 1; \
	  else \
	    echo "missing Debian packages:$$missing"; \
	    echo "install them with: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

## venv: the reference implementations for differential tests (PyPI).
venv: $(VENV)/.installed
$(VENV)/.installed: scripts/requirements-reference.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install -q -r scripts/requirements-reference.txt
	touch $@

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Full RELRO (-z relro -z now), as Debian's hardening flags ask of packaged binaries.
STATIC_FLAGS := -c release --static-swift-stdlib --scratch-path .build-static \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now

## release-static: build eventd, eventctl and eventd-web (release) with the Swift runtime and
## Foundation linked in statically, then link them as one multi-call binary into
## .build-static/multicall (eventd, and eventctl and eventd-web linking to it): it runs
## without /opt/swift.
release-static: deps
	for p in eventd eventctl eventd-web; do \
	  $(SWIFT) build $(STATIC_FLAGS) --product $$p || exit 1; \
	done
	$(PYTHON) scripts/link-multicall.py .build-static $(STATIC_BIN)

# The suites that start daemons and load the machine run one after another, each in its
# own test process, so their timing checks (watchdog, midnight) never share the CPU with
# the heavy fault and fuzz suites. WebGatewayTests starts eventd, eventd-web, 1,000
# streams and headless Chromium: it too runs on its own. PackageTests builds the package
# (`make deb`: the static release build, once) and installs, upgrades and purges it here.
HEAVY_SUITES := DaemonTests ReliabilityTests HostileInputTests WebGatewayTests RedisTests PackageTests
# Checks of the dashboard's longest task: alone, after WebGatewayTests (which skips them),
# so that a task is long for the page's own work, not for 1,000 streams beside it.
ALONE_SUITES := DashboardStallTests
REFERENCE_ENV = EVENTD_REFERENCE_PYTHON=$(CURDIR)/$(VENV)/bin/python \
	EVENTD_REFERENCE_CALENDARS=$$($(VENV)/bin/python scripts/reference_calendars.py)

test: deps venv
	$(SWIFT) build --build-tests
	$(REFERENCE_ENV) $(SWIFT) test --skip-build $(foreach s,$(HEAVY_SUITES),--skip $(s))
	@for suite in $(HEAVY_SUITES); do \
	  echo "== $$suite"; \
	  $(SWIFT) test --skip-build --filter $$suite $(foreach s,$(ALONE_SUITES),--skip $(s)) || exit $$?; \
	done
	@for suite in $(ALONE_SUITES); do \
	  echo "== $$suite"; \
	  $(SWIFT) test --skip-build --filter $$suite || exit $$?; \
	done

WEB_LISTEN ?= 127.0.0.1:8787

run: release
	$(RELEASE_BIN)/eventctl import sample-calendars/*.ics
	@echo
	$(RELEASE_BIN)/eventctl agenda --days 7
	@echo
	@echo "eventd is starting in the foreground (Ctrl-C stops both). Watch the feed in another terminal: $(CURDIR)/$(RELEASE_BIN)/eventctl subscribe --format pretty"
	@echo "The dashboard: open the address eventd-web prints below (dashboard: http://$(WEB_LISTEN)/?token=…)"
	$(RELEASE_BIN)/eventd-web --listen $(WEB_LISTEN) --assets web & web=$$!; \
	trap 'kill $$web 2>/dev/null' EXIT INT TERM; \
	$(RELEASE_BIN)/eventd

bench: release
	$(RELEASE_BIN)/eventd-bench import
	$(RELEASE_BIN)/eventd-bench snapshot
	$(RELEASE_BIN)/eventd-bench memory
	$(RELEASE_BIN)/eventd-bench diff
	$(RELEASE_BIN)/eventd-bench sources
	# eventctl watch idle: a minute's turn and two heartbeats fall in the 60 s.
	$(RELEASE_BIN)/eventd-bench watch-idle
	# Issue 12's fan-out: 10,000 subscribers need 10,000 descriptors on each side; the
	# 30-day view is the issue's RSS figure. Idle CPU is measured over one heartbeat
	# period (30 s), so it includes every subscriber's heartbeat.
	ulimit -n $$(ulimit -Hn) && $(RELEASE_BIN)/eventd-bench fanout --subscribers 5000
	ulimit -n $$(ulimit -Hn) && $(RELEASE_BIN)/eventd-bench fanout --subscribers 10000
	ulimit -n $$(ulimit -Hn) && $(RELEASE_BIN)/eventd-bench fanout --subscribers 10000 --days 30

## stress: the reliability tests at stress scale (EVENTD_STRESS_SCALE, default 20; about 25 minutes)
stress: deps
	EVENTD_STRESS_SCALE=$${EVENTD_STRESS_SCALE:-20} SWIFT=$(SWIFT) scripts/stress.sh

## fuzz: libFuzzer (with AddressSanitizer) over the import path for FUZZ_SECONDS (1800);
## every finding is kept in Tests/HostileInputTests/Corpus/fuzz-crashes/ (replayed by make test).
fuzz: deps
	SWIFT=$(SWIFT) sh scripts/fuzz.sh

# completions/ and man/*.1 are generated: the completions from the commands' option
# declarations (Sources/eventctl, Sources/eventd/EventdOptions.swift,
# Sources/eventd-web/WebOptions.swift), the man pages from those and the hand-written
# prose in man/fragments/PROGRAM/. ShipTests fails when the committed files differ from
# what the binaries print.
CLI_BIN = $$($(SWIFT) build --show-bin-path)
# The version, for what cannot import Swift; written once, in ProductVersion.swift.
VERSION := $(shell sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/Diagnostics/ProductVersion.swift)

## completions: write completions/ from the built eventctl.
completions: deps
	$(SWIFT) build --product eventctl
	$(CLI_BIN)/eventctl completions bash > completions/eventctl.bash
	$(CLI_BIN)/eventctl completions zsh > completions/_eventctl
	$(CLI_BIN)/eventctl completions fish > completions/eventctl.fish

## man: write man/eventctl.1, man/eventd.1 and man/eventd-web.1 from the binaries and man/fragments/.
man: deps
	$(SWIFT) build --product eventctl
	$(SWIFT) build --product eventd
	$(SWIFT) build --product eventd-web
	for p in eventctl eventd eventd-web; do \
	  $(CLI_BIN)/$$p __man man/fragments/$$p > man/$$p.1.tmp && mv man/$$p.1.tmp man/$$p.1 || exit 1; \
	done

# The package's version; DEB_VERSION=… packs the same binaries under another one.
DEB_VERSION ?= $(VERSION)

## deb: build eventd_VERSION_ARCH.deb here with debhelper (debian/, scripts/build-deb.sh) from
## release-static's binaries, then check it with lintian (errors fail).
deb: release-static
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_BUILD_PACKAGES)"
	deb=$$(scripts/build-deb.sh "$(DEB_VERSION)" $(STATIC_BIN) .build-deb) && \
	  cp "$$deb" . && \
	  lintian --fail-on error --info "$$(basename "$$deb")"

## version: print the version (from Sources/Diagnostics/ProductVersion.swift).
version:
	@echo $(VERSION)

PREFIX  ?= /usr/local
DESTDIR ?=

## install: build (release), then install binaries, systemd units, sysusers entry, man pages,
## completions and the dashboard under $(DESTDIR)$(PREFIX) (ExecStart= rewritten to $(PREFIX)/bin/).
install: release
	sh scripts/install.sh install "$(PREFIX)" "$(DESTDIR)" "$(RELEASE_BIN)"

## uninstall: remove exactly the files that install installed.
uninstall:
	sh scripts/install.sh uninstall "$(PREFIX)" "$(DESTDIR)"

clean:
	rm -rf .build .build-static .build-deb $(VENV)
