# botarena — build, test and benchmark. `make help` lists the targets.

GO      ?= go
BIN     ?= bin/botarena
PKGS    ?= ./...
BENCH   ?= .
FUZZTIME ?= 10s
# go test's own 10-minute default per package is too short for the race
# detector on a loaded 2-core machine; a hang still ends the run.
TEST_TIMEOUT ?= 40m
# Minimizing every new input for long would eat short runs: 10 calls each.
FUZZMINIMIZETIME ?= 10x
VENV    ?= .venv
# The Python that makes .venv (make venv); a PyTorch it imports is reused by train-venv and extras-venv.
PYTHON  ?= python3
# Pinned so that `make generate` writes the same Python code everywhere.
GRPC_TOOLS ?= grpcio-tools==1.85.1
PROTO   := rpc/proto/botarena/v1/env.proto rpc/proto/botarena/v1/match.proto
# Tests that check interoperability with pyarrow use this Python; they skip
# when it has no pyarrow. `make venv` provides one.
export BOTARENA_PYTHON ?= $(abspath $(VENV)/bin/python)

# make train: the game, the training time and where the run goes.
GAME    ?= battlebots
MINUTES ?= 15
RUN     ?= runs/$(subst /,-,$(GAME))
TRAIN_ARGS ?=
# Where train-venv and extras-venv get PyTorch when .venv and its base Python import none (a PyTorch
# either imports is reused): auto = the CPU build (https://download.pytorch.org/whl/cpu, ~200 MB)
# on Linux without nvidia-smi, PyPI's default (CUDA on Linux, several GB) otherwise; pypi = PyPI's
# default; or an index URL. python/tools/install_extras.py says which it installs and why.
TORCH_INDEX ?= auto

.PHONY: image k8s-validate league help build lib wheel test fmt-check vet race pytest lint typecheck bench bench-figures fuzz play venv train-venv extras-venv train generate check-generated clean docs

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

build: ## build the botarena binary into bin/
	@echo "building $(BIN) with go build (a minute or more on a cold Go cache, seconds after; -v names each package it compiles) ..."
	$(GO) build -v -buildvcs=auto -o $(BIN) ./cmd/botarena

lib: ## build the native backend's shared library (cgo) into bin/libbotarena.so
	@echo "building bin/libbotarena.so with go build -buildmode=c-shared (minutes on a cold Go cache; -v names each package it compiles) ..."
	CGO_ENABLED=1 $(GO) build -v -buildmode=c-shared -o bin/libbotarena.so ./cmd/libbotarena

# The wheel's two go builds (python/setup.py) use -trimpath, which gives every package other cache
# keys than make build's: the first wheel compiles every package, the standard library included, twice
# over (the static server binary with cgo off, the c-shared library with cgo on): tens of minutes on two
# busy cores, seconds once the Go cache holds them. pip -v shows setup.py's output (pip hides a build
# backend's output otherwise), and setup.py runs go build -v, which names each package it compiles.
wheel: ## a platform wheel of the Python package with the server binary and native library bundled, into dist/ (python/setup.py)
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	@echo "checking for setuptools>=70.1 in $(VENV) ..."
	$(VENV)/bin/python -m pip install --disable-pip-version-check 'setuptools>=70.1'
	@echo "building the wheel: two go build -trimpath runs (the server binary, the native library); on a cold Go cache each compiles every package: tens of minutes on 2 cores, seconds after ..."
	BOTARENA_BUNDLE_BINARY=1 $(VENV)/bin/python -m pip wheel -v --no-deps --no-build-isolation --disable-pip-version-check -w dist ./python

# make image: the container image, written without a container daemon (deploy/image).
IMAGE_TAG ?= botarena:dev
IMAGE_DIR ?= dist/image
IMAGE_ARCH ?= $(shell $(GO) env GOARCH)
# Kubernetes versions whose API schemas deploy/k8s must pass (kubernetes-validate --strict).
K8S_VERSIONS ?= 1.30 1.37

image: ## the container image: an OCI layout in dist/image and dist/botarena-image.tar for docker load, no daemon (deploy/image)
	CGO_ENABLED=0 GOOS=linux GOARCH=$(IMAGE_ARCH) $(GO) build -trimpath -ldflags='-s -w' -o dist/image-bin/botarena ./cmd/botarena
	$(GO) run ./deploy/image -binary dist/image-bin/botarena -arch $(IMAGE_ARCH) -out $(IMAGE_DIR) -tag $(IMAGE_TAG) -tar dist/botarena-image.tar

k8s-validate: venv ## deploy/k8s against the Kubernetes API's JSON schemas (kubernetes-validate --strict) and the Go checks beside the image
	test -x $(VENV)/bin/kubernetes-validate || $(VENV)/bin/python -m pip install --quiet --disable-pip-version-check 'kubernetes-validate>=1.30'
	for v in $(K8S_VERSIONS); do $(VENV)/bin/kubernetes-validate --strict --quiet -k $$v deploy/k8s/*.yaml || exit 1; done
	$(GO) test -count=1 -run 'Manifests|Image' ./deploy/image

test: fmt-check vet race pytest ## the README's test command: gofmt check, go vet, go test -race, pytest

fmt-check: ## fail if any Go file is not gofmt-formatted
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet: ## go vet
	$(GO) vet $(PKGS)

race: venv ## go test -race (the venv lets the pyarrow interoperability test run)
	$(GO) test -race -timeout $(TEST_TIMEOUT) $(PKGS)

pytest: venv ## the Python package's tests (they build and start botarena serve)
	$(VENV)/bin/python -m pytest python/tests -q

lint: fmt-check vet ## gofmt, go vet and staticcheck
	$(GO) tool staticcheck $(PKGS)

typecheck: ## mypy (strict) over the Python package; needs make extras-venv
	cd python && ../$(VENV)/bin/python -m mypy src/botarena

bench: ## run the Go benchmarks (BENCH=regexp)
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem $(PKGS)

bench-figures: ## every figure of README.md and bench/README.md with the peers, interleaved, into bench/<UTC date and time>-figures.txt (ROUNDS=3; TRAIN_PY: a Python with PyTorch)
	@f=bench/$$(date -u +%Y-%m-%dT%H%MZ)-figures.txt; bash bench/figures.sh $(or $(ROUNDS),3) > $$f && \
	{ echo "# summary: median (min .. max) over the rounds"; bash bench/figures.sh summary $$f; } >> $$f && echo "wrote $$f"

fuzz: ## run every fuzz target of PKGS (found by go test -list) for FUZZTIME each
	@list=$$($(GO) test -list '^Fuzz' $(PKGS)) || { printf '%s\n' "$$list"; exit 1; }; \
	targets=$$(printf '%s\n' "$$list" | awk '/^Fuzz/ { n[++k] = $$1 } /^ok/ { for (i = 1; i <= k; i++) print $$2, n[i]; k = 0 }'); \
	test -n "$$targets" || { echo "fuzz: no fuzz targets in $(PKGS)"; exit 1; }; \
	echo "fuzz: $$(printf '%s\n' "$$targets" | wc -l) targets, $(FUZZTIME) each"; \
	printf '%s\n' "$$targets" | while read -r pkg name; do \
		echo "fuzz: $$name ($$pkg)"; \
		$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME) "$$pkg" || exit 1; \
	done

league: ## a 6-agent BattleBots league: init, add, run 120 games, table and leagues/battlebots/ratings.png
	examples/league/battlebots.sh leagues/battlebots 120

play: build ## watch a Bomberman match on the terminal
	$(BIN) play bomberman --pretty

venv: $(VENV)/.installed ## create .venv with the botarena package, its test extras and the code generator

$(VENV)/.installed: python/pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python python/tools/install_extras.py --venv $(VENV) --extras test --with pyarrow --with numpy --with '$(GRPC_TOOLS)'
	touch $@

train-venv: $(VENV)/.train-installed ## add the training extras (PyTorch, matplotlib) to .venv

$(VENV)/.train-installed: $(VENV)/.installed
	$(VENV)/bin/python python/tools/install_extras.py --venv $(VENV) --torch --torch-index '$(TORCH_INDEX)' --extras train,test
	touch $@

extras-venv: $(VENV)/.extras-installed ## add every optional extra to .venv: training, SB3, RLlib, Ray, video, mypy, kubernetes-validate (CI runs their tests)

$(VENV)/.extras-installed: $(VENV)/.installed
	@echo "adding the extras to $(VENV): PyTorch, matplotlib, SB3, sb3-contrib, SuperSuit, moviepy, Ray RLlib, mypy, kubernetes-validate (large downloads the first time) ..."
	$(VENV)/bin/python python/tools/install_extras.py --venv $(VENV) --torch --torch-index '$(TORCH_INDEX)' --extras train,sb3,video,rllib,ray,k8s,test,dev
	touch $(VENV)/.train-installed $@

train: build train-venv ## train a PPO bot, evaluate it, export it and watch it play: make train GAME=battlebots MINUTES=15 [TORCH_INDEX=auto|pypi|URL]
	@echo "training $(GAME) for $(MINUTES) minutes into $(RUN) (the first native pool may build the native library first: a minute or two, said on stderr) ..."
	BOTARENA_BIN=$(abspath $(BIN)) $(VENV)/bin/python -m botarena.train --game $(GAME) --minutes $(MINUTES) --out $(RUN) --play $(TRAIN_ARGS)

# make docs: the site's tools, pinned in docs/requirements.txt, live in their own venv.
DOCS_VENV ?= .venv-docs

docs: build venv $(DOCS_VENV)/.installed ## the docs site into site/ (MkDocs Material, mkdocstrings; warnings are errors): a page per game, the Python API, the CLI reference
	@echo "docs: writing docs/gen from $(BIN): a page per game (games --json, rules, the gauntlets), animations drawn by each game's painter, the CLI reference ..."
	$(VENV)/bin/python python/tools/docs_pages.py --bin $(BIN) --out docs/gen
	@echo "docs: mkdocs build --strict into site/ ..."
	$(DOCS_VENV)/bin/mkdocs build --strict
	@echo "docs: open site/index.html"

$(DOCS_VENV)/.installed: docs/requirements.txt
	@echo "docs: installing the pinned site tools (docs/requirements.txt: MkDocs, Material, mkdocstrings; about 20 MB) into $(DOCS_VENV) ..."
	test -x $(DOCS_VENV)/bin/python || $(PYTHON) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/python -m pip install --disable-pip-version-check -r docs/requirements.txt
	touch $@

generate: venv ## regenerate the protobuf/Connect Go code (buf), the Python stubs (grpc_tools) and python/src/botarena/games.py
	$(GO) tool buf lint
	$(GO) tool buf generate
	$(VENV)/bin/python -m grpc_tools.protoc -I rpc/proto --python_out=python/src --pyi_out=python/src --grpc_python_out=python/src $(PROTO)
	$(GO) run ./cmd/botarena games --json | $(VENV)/bin/python python/tools/gen_games.py > python/src/botarena/games.py.tmp
	mv python/src/botarena/games.py.tmp python/src/botarena/games.py

check-generated: generate ## fail if the committed generated code is not what make generate writes
	@git diff --exit-code -- rpc/gen python/src/botarena/v1 python/src/botarena/games.py || { echo "generated code is stale: run make generate and commit"; exit 1; }
	@test -z "$$(git ls-files --others --exclude-standard -- rpc/gen python/src/botarena/v1)" || { echo "make generate wrote files git does not track:"; git ls-files --others --exclude-standard -- rpc/gen python/src/botarena/v1; exit 1; }

clean: ## remove build outputs (not runs/, which holds trained policies)
	rm -rf bin
