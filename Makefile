# gpuwise — build everything into $(BUILD). See README.md.
#   make            CLI, library, fake vendor libraries
#   make test       set up (scripts/setup), build, run every test suite
#   make check      build, then lint, exports, unit tests and fuzz replays
#   make run        build and run `gpuwise doctor` on this machine
#   make SAN=1 BUILD=build/asan   the same under ASan+UBSan

BUILD ?= build
CC ?= cc
SAN ?=
PYTHON ?= python3

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla -Werror
CFLAGS ?= -O2 -g
ifeq ($(SAN),1)
CFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
# Real fuzzing (scripts/fuzz): clang, ASan+UBSan, libFuzzer's coverage
# instrumentation everywhere, libFuzzer's main() only in the fuzzers.
ifeq ($(SAN),fuzzer)
CC := clang
CFLAGS := -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC $(WARN) -Iinclude -Ilib -I$(BUILD)/gen $(CPPFLAGS) $(CFLAGS)
LDLIBS := -ldl -lpthread -lm
# The release: GPUWISE_VERSION in the public header is the one place it is said.
VERSION := $(shell sed -n 's/^\#define GPUWISE_VERSION "\(.*\)"/\1/p' include/gpuwise/gpuwise.h)
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
# Where `make install` puts things (docs/install.md); set before any rule
# that expands them at parse time (the LOCALEDIR compiled into the library).
# Give the same PREFIX (or LOCALEDIR) to `make` and to `make install`.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
INSTALL ?= install

# `gpuwise exporter` needs libmicrohttpd (HTTP, TLS through GnuTLS), libyaml
# (--web-config) and libcrypt (bcrypt); scripts/setup installs them. They are
# linked into the CLI only, never the library; without them the CLI still
# builds and `gpuwise exporter` says what is missing (GW_HAVE_EXPORTER unset).
EXPORTER_PKGS := libmicrohttpd yaml-0.1
HAVE_EXPORTER := $(shell pkg-config --exists $(EXPORTER_PKGS) 2>/dev/null && \
	printf '\043include <crypt.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_EXPORTER),1)
EXPORTER_CFLAGS := -DGW_HAVE_EXPORTER $(shell pkg-config --cflags $(EXPORTER_PKGS))
# libmicrohttpd is dlopen'd by cli/httpd.c (its soname from the .so link
# the -dev package installs), so it is not linked: see the comment there.
MHD_SONAME := $(shell objdump -p $$(pkg-config --variable=libdir libmicrohttpd)/libmicrohttpd.so 2>/dev/null | \
	awk '/SONAME/ { print $$2 }')
EXPORTER_CFLAGS += $(if $(MHD_SONAME),-DGW_MHD_SONAME='"$(MHD_SONAME)"')
EXPORTER_LIBS := $(shell pkg-config --libs yaml-0.1) -lcrypt
endif

# `gpuwise top` draws with ncursesw (scripts/setup installs libncurses-dev),
# linked into the CLI only; without it the CLI builds and `top` offers
# --once alone (GW_HAVE_CURSES unset).
HAVE_CURSES := $(shell pkg-config --exists ncursesw 2>/dev/null && echo 1)
ifeq ($(HAVE_CURSES),1)
CURSES_CFLAGS := -DGW_HAVE_CURSES $(filter-out -D_XOPEN_SOURCE% -D_DEFAULT_SOURCE,$(shell pkg-config --cflags ncursesw))
CURSES_LIBS := $(shell pkg-config --libs ncursesw)
endif

# gpuwise run's accounting log and `gpuwise report` need SQLite (Debian
# libsqlite3-dev; scripts/setup installs it), linked into the CLI only;
# without it run logs nothing and report says why (GW_HAVE_SQLITE unset).
HAVE_SQLITE := $(shell pkg-config --exists sqlite3 2>/dev/null && echo 1)
ifeq ($(HAVE_SQLITE),1)
SQLITE_CFLAGS := -DGW_HAVE_SQLITE $(shell pkg-config --cflags sqlite3)
SQLITE_LIBS := $(shell pkg-config --libs sqlite3)
endif

# `gpuwise exporter --kubernetes` asks the kubelet's PodResources API over
# gRPC: gRPC's C core (Debian libgrpc-dev) is dlopen'd by cli/kubernetes.c
# (its headers are needed to build, its library only with --kubernetes);
# the messages are C that protoc-c (protobuf-c-compiler) generates from
# cli/podresources_v1.proto into $(BUILD)/gen, with protobuf-c's runtime
# (libprotobuf-c-dev) linked statically, so the CLI needs no protobuf-c at
# run time. scripts/setup installs them; without them the CLI builds and
# --kubernetes says what is missing (GW_HAVE_K8S unset).
PROTOC_C := $(shell command -v protoc-c 2>/dev/null)
HAVE_K8S := $(shell [ -n "$(PROTOC_C)" ] && pkg-config --exists grpc libprotobuf-c 2>/dev/null && \
	[ -f "$$(pkg-config --variable=libdir libprotobuf-c)/libprotobuf-c.a" ] && echo 1)
ifeq ($(HAVE_K8S),1)
GRPC_SONAME := $(shell objdump -p $$(pkg-config --variable=libdir grpc)/libgrpc.so 2>/dev/null | \
	awk '/SONAME/ { print $$2 }')
K8S_CFLAGS := -DGW_HAVE_K8S $(if $(GRPC_SONAME),-DGW_GRPC_SONAME='"$(GRPC_SONAME)"') \
	$(shell pkg-config --cflags-only-I grpc libprotobuf-c)
K8S_OBJ := $(BUILD)/obj/$(BUILD)/gen/podresources_v1.pb-c.o
K8S_LIBS := $(shell pkg-config --variable=libdir libprotobuf-c)/libprotobuf-c.a
endif

LIB_SRC := $(sort $(wildcard lib/*/*.c lib/*/*/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
FAKE_COMMON := fake/machine.c lib/core/jsonp.c
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
ifneq ($(HAVE_EXPORTER),1)
FUZZ_SRC := $(filter-out tests/fuzz/fuzz_exporter_http.c,$(FUZZ_SRC))
endif

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%-replay)

GEN_HDR := $(patsubst data/%.tsv,$(BUILD)/gen/%.h,$(wildcard data/*.tsv))
# Kept: as prerequisites of a pattern rule they would be intermediate, deleted
# after each build and regenerated (and everything rebuilt) by the next one.
.SECONDARY: $(GEN_HDR)

# The explain catalogue (data/findings/*.txt, data/explain/patterns, the status
# codes data/explain/status_codes.tsv and status_wrappings) becomes
# C tables through scripts/gen-explain, compiled into the library.
EXPLAIN_DATA := scripts/gen-explain data/explain/patterns data/explain/refinements data/explain/status_codes.tsv data/explain/status_wrappings data/explain/loader_wordings data/explain/arch_wordings data/explain/legacy_cuda data/explain/fallback_wordings $(wildcard data/findings/*.txt)
LIB_OBJ += $(BUILD)/obj/$(BUILD)/gen/explain_data.o

# Translations (po/*.po, docs/contracts.md "Languages"): compiled by msgfmt into
# $(BUILD)/locale, found there by the build tree's binaries (lib/core/language.c);
# LOCALEDIR is where an installed gpuwise looks. Without msgfmt (gettext) the
# build goes on and gpuwise speaks English.
LOCALEDIR ?= $(DATADIR)/locale
MSGFMT := $(shell command -v msgfmt 2>/dev/null)
MSGCAT := $(shell command -v msgcat 2>/dev/null)
PO_FILES := $(wildcard po/*.po)
MO_FILES := $(if $(MSGFMT),$(PO_FILES:po/%.po=$(BUILD)/locale/%/LC_MESSAGES/gpuwise.mo))

# Each language has two catalogues, the program's (po/LANG.po) and the data
# texts' (po/data/LANG.po, doctor's and explain's findings): one gpuwise.mo.
$(BUILD)/locale/%/LC_MESSAGES/gpuwise.mo: po/%.po po/data/%.po
	@mkdir -p $(dir $@) $(BUILD)/po
	$(MSGCAT) --use-first -o $(BUILD)/po/$*.po $^
	$(MSGFMT) -c -o $@ $(BUILD)/po/$*.po

.PHONY: all test check run clean unit fuzz-replay fuzzers check-format po
all: $(MO_FILES) $(BUILD)/gpuwise $(BUILD)/libgpuwise.a $(BUILD)/libgpuwise.so \
     $(BUILD)/fake/libnvidia-ml.so.1 $(BUILD)/fake/libcuda.so.1 \
     $(BUILD)/fake/legacy-470/libnvidia-ml.so.1 $(BUILD)/fake/cuda-11.2/libcuda.so.1 \
     $(BUILD)/fake/libcublasLt.so.12 $(UNIT_BIN) $(FUZZ_REPLAY)

$(BUILD)/gen/%.h: data/%.tsv scripts/gen-table
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-table $< $@

# What this build was configured with, one file per audience, as git's
# GIT-CFLAGS: the compiler and flags (everything depends on them) and the
# optional libraries found (the CLI only). Each is rewritten only when its text
# changes, so `make` after installing or removing a -dev package, or with other
# CFLAGS, rebuilds exactly the objects that change -- `make run` on a fresh
# machine and then `make test` (whose setup installs the headers) works.
# The generated headers are order-only: the .d files name the objects that
# include them, so a new data row rebuilds its users, not every object.
BUILD_CFLAGS_FILE := $(BUILD)/config/cflags
BUILD_OPTIONAL_FILE := $(BUILD)/config/optional
config_text = $(subst ','\'',$(1))
define write_if_changed
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(call config_text,$(1))' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
endef
$(BUILD_CFLAGS_FILE): FORCE
# (LOCALEDIR is left out: `make install PREFIX=...` of a tree built for
# another prefix must not rebuild the tree that tests are running from; give
# the same PREFIX to make and make install, as docs/install.md says.)
	$(call write_if_changed,$(CC) $(ALL_CFLAGS) | $(LDFLAGS) $(LDLIBS))
$(BUILD_OPTIONAL_FILE): FORCE
	$(call write_if_changed,exporter=$(HAVE_EXPORTER) $(EXPORTER_CFLAGS) $(EXPORTER_LIBS) | curses=$(HAVE_CURSES) $(CURSES_CFLAGS) $(CURSES_LIBS) | sqlite=$(HAVE_SQLITE) $(SQLITE_CFLAGS) $(SQLITE_LIBS) | k8s=$(HAVE_K8S) $(K8S_CFLAGS) $(K8S_LIBS))
.PHONY: FORCE
FORCE:

$(BUILD)/obj/%.o: %.c $(BUILD_CFLAGS_FILE) | $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

# The library exports its public API only: hidden by default, the public
# headers declared visible first (lib/export.h), gw_* kept by the version
# script; tests/abi/test_exports.sh checks the result.
$(LIB_OBJ): OBJ_CFLAGS := -fvisibility=hidden -include lib/export.h
$(LIB_OBJ): lib/export.h
$(CLI_OBJ): OBJ_CFLAGS := $(EXPORTER_CFLAGS) $(CURSES_CFLAGS) $(SQLITE_CFLAGS)
$(BUILD)/obj/cli/kubernetes.o: OBJ_CFLAGS += $(K8S_CFLAGS)
$(CLI_OBJ): $(BUILD_OPTIONAL_FILE)
$(BUILD)/obj/lib/core/language.o: OBJ_CFLAGS += -DGW_LOCALEDIR='"$(LOCALEDIR)"'

# One run writes both files: a grouped target (make ≥ 4.3), so make knows the
# header changed too and rebuilds explain.o (a recipe-less .h rule did not).
$(BUILD)/gen/explain_data.c $(BUILD)/gen/explain_data.h &: $(EXPLAIN_DATA)
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-explain $(BUILD)/gen data/explain/patterns data/findings
$(filter $(BUILD)/obj/lib/explain/%,$(LIB_OBJ)): $(BUILD)/gen/explain_data.h

$(BUILD)/libgpuwise.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The soname carries the major version only (docs/abi.md says when it moves);
# `make install` names the file libgpuwise.so.$(VERSION) and links to it.
$(BUILD)/libgpuwise.so: $(LIB_OBJ) lib/libgpuwise.map Makefile
	$(CC) -shared $(LDFLAGS) -Wl,--version-script=lib/libgpuwise.map -Wl,-soname,libgpuwise.so.$(SOVERSION) -o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/gpuwise: $(CLI_OBJ) $(K8S_OBJ) $(BUILD)/libgpuwise.a $(BUILD_OPTIONAL_FILE)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(K8S_OBJ) $(BUILD)/libgpuwise.a $(EXPORTER_LIBS) $(CURSES_LIBS) $(SQLITE_LIBS) $(K8S_LIBS) $(LDLIBS)

# The PodResources messages in C (cli/kubernetes.c), generated, never committed.
$(BUILD)/gen/podresources_v1.pb-c.c $(BUILD)/gen/podresources_v1.pb-c.h &: cli/podresources_v1.proto
	@mkdir -p $(dir $@)
	$(PROTOC_C) --proto_path=cli --c_out=$(BUILD)/gen cli/podresources_v1.proto
$(BUILD)/obj/cli/kubernetes.o: $(if $(K8S_OBJ),$(BUILD)/gen/podresources_v1.pb-c.h)
$(K8S_OBJ): OBJ_CFLAGS := $(K8S_CFLAGS)

# The fake vendor libraries: built from fake/ plus the JSON reader, never
# from the rest of lib/ (they must not share gpuwise's NVML code paths).
$(BUILD)/fake/libnvidia-ml.so.1: fake/fake_nvml.c $(FAKE_COMMON) fake/machine.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_nvml.c $(FAKE_COMMON) -lpthread -Wl,-soname,libnvidia-ml.so.1
	ln -sf libnvidia-ml.so.1 $(BUILD)/fake/libnvidia-ml.so

# The same fake as a 470-branch driver ships it: newer symbols not exported.
$(BUILD)/fake/legacy-470/libnvidia-ml.so.1: fake/fake_nvml.c $(FAKE_COMMON) fake/machine.h fake/legacy-470.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_nvml.c $(FAKE_COMMON) -lpthread -Wl,-soname,libnvidia-ml.so.1 -Wl,--version-script=fake/legacy-470.map
	ln -sf ../libcuda.so.1 $(dir $@)libcuda.so.1

# The fake cuBLASLt (bench's GEMM tests); also found under the CUDA 13 name.
$(BUILD)/fake/libcublasLt.so.12: fake/fake_cublaslt.c $(FAKE_COMMON) fake/machine.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_cublaslt.c $(FAKE_COMMON) -lpthread -ldl -lm -Wl,-soname,libcublasLt.so.12
	ln -sf libcublasLt.so.12 $(BUILD)/fake/libcublasLt.so.13

# The fake libcuda as CUDA 11.2 ships it: no cuGetProcAddress (bench's old-driver path).
$(BUILD)/fake/cuda-11.2/libcuda.so.1: fake/fake_cuda.c fake/fake_cuda_exec.c fake/fake_cuda.h fake/cuda_types.h $(FAKE_COMMON) fake/machine.h fake/legacy-cuda-11.2.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_cuda.c fake/fake_cuda_exec.c $(FAKE_COMMON) -lpthread -Wl,-soname,libcuda.so.1 -Wl,--version-script=fake/legacy-cuda-11.2.map

$(BUILD)/fake/libcuda.so.1: fake/fake_cuda.c fake/fake_cuda_exec.c fake/fake_cuda.h fake/cuda_types.h $(FAKE_COMMON) fake/machine.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_cuda.c fake/fake_cuda_exec.c $(FAKE_COMMON) -lpthread -Wl,-soname,libcuda.so.1
	ln -sf libcuda.so.1 $(BUILD)/fake/libcuda.so

# Everything compiled outside the object rule follows the configuration too.
FAKE_LIBS := $(BUILD)/fake/libnvidia-ml.so.1 $(BUILD)/fake/legacy-470/libnvidia-ml.so.1 \
	$(BUILD)/fake/libcublasLt.so.12 $(BUILD)/fake/cuda-11.2/libcuda.so.1 $(BUILD)/fake/libcuda.so.1
$(FAKE_LIBS) $(UNIT_BIN) $(FUZZ_REPLAY) $(BUILD)/tests/test_abi: $(BUILD_CFLAGS_FILE)
$(filter $(BUILD)/tests/test_cli_%,$(UNIT_BIN)) $(BUILD)/fuzz/fuzz_exporter_http-replay: $(BUILD_OPTIONAL_FILE)

# The fake machines (tests/machines/make_machines.py is their only
# description; scripts/with-machine and the tests find them here). One copy
# for every BUILD: they do not depend on the compiler or its flags.
MACHINES_DIR := build/machines
$(MACHINES_DIR)/.made: tests/machines/make_machines.py
	@rm -rf $(MACHINES_DIR).tmp
	$(PYTHON) tests/machines/make_machines.py --out $(MACHINES_DIR).tmp >/dev/null
	@rm -rf $(MACHINES_DIR) && mv $(MACHINES_DIR).tmp $(MACHINES_DIR)
	@touch $@
all: $(MACHINES_DIR)/.made

# The doctor scenarios: each is a fake machine plus the changes
# tests/doctor/make_scenarios.py makes to it, with its expected ids. They are
# generated here, never committed (thousands of copied files said nothing the
# script does not), and tests/cli/lib.sh finds them as $(BUILD)/doctor-scenarios.
# (PCI paths hold colons, which make must see escaped.)
SCENARIO_INPUTS := tests/doctor/make_scenarios.py $(MACHINES_DIR)/.made $(subst :,\:,$(shell find tests/fixtures -type f 2>/dev/null))
$(BUILD)/doctor-scenarios/.made: $(SCENARIO_INPUTS)
	@rm -rf $(BUILD)/doctor-scenarios.tmp
	GPUWISE_MACHINES=$(MACHINES_DIR) $(PYTHON) tests/doctor/make_scenarios.py $(BUILD)/doctor-scenarios.tmp >/dev/null
	@rm -rf $(BUILD)/doctor-scenarios && mv $(BUILD)/doctor-scenarios.tmp $(BUILD)/doctor-scenarios
	@touch $@
all: $(BUILD)/doctor-scenarios/.made

# The CLI's helpers (everything in cli/ but main.c) as an archive, so unit
# tests of cli/ code (tests/unit/test_cli_*.c) link only what they use.
$(BUILD)/libgpuwise-cli.a: $(filter-out $(BUILD)/obj/cli/main.o,$(CLI_OBJ)) $(K8S_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/tests/test_cli_%: tests/unit/test_cli_%.c $(BUILD)/libgpuwise-cli.a $(BUILD)/libgpuwise.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(EXPORTER_CFLAGS) -Itests/unit -Icli $(LDFLAGS) -o $@ $< $(BUILD)/libgpuwise-cli.a $(BUILD)/libgpuwise.a $(EXPORTER_LIBS) $(CURSES_LIBS) $(SQLITE_LIBS) $(K8S_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libgpuwise.a $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libgpuwise.a $(LDLIBS)

# ABI check (tests/abi/): gpuwise's local NVML/CUDA declarations against
# NVIDIA's headers and the fake's, as _Static_asserts; built into the unit
# tests so tests/run.sh runs it. Without nvml.h it builds and says SKIP.
NVML_H := $(firstword $(wildcard build/venv/lib/python3*/site-packages/nvidia/*/include/nvml.h /usr/local/cuda/include/nvml.h))
CUDA_H := $(firstword $(wildcard /usr/local/cuda/include/cuda.h))
# cublasLt.h includes its siblings with <>: its folder goes on the path.
CUBLASLT_H := $(firstword $(wildcard /usr/local/cuda/include/cublasLt.h))
FAKE_NVML_TYPES_H := $(wildcard fake/nvml_types.h)
ABI_DEFS := $(if $(NVML_H),-DGW_NVML_H='"$(abspath $(NVML_H))"') $(if $(CUDA_H),-DGW_CUDA_H='"$(CUDA_H)"') \
	    $(if $(FAKE_NVML_TYPES_H),-DGW_FAKE_NVML_TYPES_H='"$(abspath $(FAKE_NVML_TYPES_H))"') \
	    $(if $(CUBLASLT_H),-DGW_CUBLASLT_H='"$(CUBLASLT_H)"' -isystem $(dir $(CUBLASLT_H)))
all: $(BUILD)/tests/test_abi
$(BUILD)/tests/test_abi: tests/abi/test_abi.c tests/abi/test_abi_fake.c tests/abi/abi_check.h tests/abi/nvml_checks.h \
		lib/backend/nvml_abi.h lib/backend/cuda_abi.h lib/bench/cublaslt.h $(NVML_H) $(CUDA_H) $(CUBLASLT_H) \
		$(FAKE_NVML_TYPES_H)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ABI_DEFS) $(LDFLAGS) -o $@ tests/abi/test_abi.c tests/abi/test_abi_fake.c

# Fuzz targets. What each one is compiled with is said once, here, for both
# builds: the corpus replay (a plain program, in `all`) and the libFuzzer
# build (`make SAN=fuzzer BUILD=build/libfuzzer fuzzers`, what scripts/fuzz
# runs). A target links libgpuwise.a unless it names other inputs; the
# machine.json reader lives in fake/, outside the library, and builds
# standalone as the fakes do.
FUZZ_INPUTS = $(or $(FUZZ_INPUTS_$(1)),$(BUILD)/libgpuwise.a)
FUZZ_FLAGS = $(or $(FUZZ_FLAGS_$(1)),$(LDLIBS))
FUZZ_INPUTS_fuzz_machine_json := $(FAKE_COMMON) fake/machine.h lib/core/jsonp.h
FUZZ_FLAGS_fuzz_machine_json := -DGW_JSON_STANDALONE -Ifake -lpthread
# The exporter's own HTTP pieces (route, Basic auth header, --listen, the
# web-config YAML): cli/exporter_http.c alone, with libyaml and libcrypt.
FUZZ_INPUTS_fuzz_exporter_http := cli/exporter_http.c cli/exporter.h
FUZZ_FLAGS_fuzz_exporter_http := -Icli $(EXPORTER_CFLAGS) $(EXPORTER_LIBS)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
fuzz_cmd = $(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.a,$^) $(call FUZZ_FLAGS,$(1))

# Every rule needs its target's inputs as prerequisites, so expand them per
# target rather than through a pattern rule.
define fuzz_rules
$(BUILD)/fuzz/$(1)-replay: tests/fuzz/$(1).c tests/fuzz/replay_main.c $(call FUZZ_INPUTS,$(1))
	@mkdir -p $$(dir $$@)
	$$(call fuzz_cmd,$(1))
$(BUILD)/fuzz/$(1): tests/fuzz/$(1).c $(call FUZZ_INPUTS,$(1))
	@mkdir -p $$(dir $$@)
	$$(call fuzz_cmd,$(1)) -fsanitize=fuzzer
endef
$(foreach t,$(FUZZ_SRC:tests/fuzz/%.c=%),$(eval $(call fuzz_rules,$(t))))

fuzzers: $(FUZZ_BIN)

test:
	bash scripts/setup
	bash tests/run.sh

# The inner loop: lint, exports, unit tests and fuzz replays (under a minute
# after a build); `make test` runs these and every other suite.
check:
	bash tests/run.sh check

run: all
	@# doctor exits 1 when it finds an error (e.g. no GPU here): that is its
	@# answer, not a build failure; 2 (usage) or a crash still fails make.
	./$(BUILD)/gpuwise doctor || test $$? -eq 1

clean:
	rm -rf build

# ---- Installing (docs/install.md). GNU-style variables, each overridable:
#   make install PREFIX=/opt/gpuwise DESTDIR=/tmp/stage LIBDIR=/usr/lib64
# The CLI links libgpuwise.a (one self-contained binary that runs from build/
# and needs no library path); other programs link the shared library through
# pkg-config. Installs only what `installables` builds, never rebuilds tests.
# (The directory variables are set near the top: LOCALEDIR is compiled in.)

PUBLIC_HDR := $(sort $(wildcard include/gpuwise/*.h))
# The exporter's deployment files (docs/commands/exporter.md), as examples
# under share/gpuwise/: the systemd unit names the installed binary.
DEPLOY_FILES := $(sort $(wildcard deploy/*/*))
COMPLETIONS := $(BUILD)/completion/gpuwise.bash $(BUILD)/completion/_gpuwise $(BUILD)/completion/gpuwise.fish
# Every path `make install` writes (below DESTDIR), so uninstall removes
# exactly these and tests/install/test_make_install.sh checks the list.
INSTALLED = $(BINDIR)/gpuwise \
	$(LIBDIR)/libgpuwise.so.$(VERSION) $(LIBDIR)/libgpuwise.so.$(SOVERSION) $(LIBDIR)/libgpuwise.so \
	$(LIBDIR)/libgpuwise.a $(PKGCONFIGDIR)/gpuwise.pc \
	$(PUBLIC_HDR:include/%=$(INCLUDEDIR)/%) $(MANDIR)/man1/gpuwise.1 \
	$(BASHCOMPDIR)/gpuwise $(ZSHCOMPDIR)/_gpuwise $(FISHCOMPDIR)/gpuwise.fish \
	$(MO_FILES:$(BUILD)/locale/%=$(LOCALEDIR)/%) \
	$(DEPLOY_FILES:deploy/%=$(DATADIR)/gpuwise/%)

.PHONY: installables completions install uninstall
installables: $(BUILD)/gpuwise $(BUILD)/libgpuwise.a $(BUILD)/libgpuwise.so completions $(MO_FILES)
completions: $(COMPLETIONS)

# Completion comes from the CLI's own option table (gpuwise __spec), as the
# man page does, so it cannot drift from --help.
$(BUILD)/completion/gpuwise.bash: $(BUILD)/gpuwise scripts/gen-completion
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-completion bash $(BUILD)/gpuwise > $@.tmp && mv $@.tmp $@
$(BUILD)/completion/_gpuwise: $(BUILD)/gpuwise scripts/gen-completion
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-completion zsh $(BUILD)/gpuwise > $@.tmp && mv $@.tmp $@
$(BUILD)/completion/gpuwise.fish: $(BUILD)/gpuwise scripts/gen-completion
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-completion fish $(BUILD)/gpuwise > $@.tmp && mv $@.tmp $@

# gpuwise.pc is written at install time, so it names the directories of this
# install (a `make` then `make install PREFIX=/opt/x` gets /opt/x); a libdir
# or includedir under PREFIX is written relative to ${prefix}.
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
install: installables
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/gpuwise $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	$(INSTALL) -m 0755 $(BUILD)/gpuwise $(DESTDIR)$(BINDIR)/gpuwise
	$(INSTALL) -m 0644 $(BUILD)/libgpuwise.so $(DESTDIR)$(LIBDIR)/libgpuwise.so.$(VERSION)
	ln -sf libgpuwise.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libgpuwise.so.$(SOVERSION)
	ln -sf libgpuwise.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libgpuwise.so
	$(INSTALL) -m 0644 $(BUILD)/libgpuwise.a $(DESTDIR)$(LIBDIR)/libgpuwise.a
	$(INSTALL) -m 0644 $(PUBLIC_HDR) $(DESTDIR)$(INCLUDEDIR)/gpuwise/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' -e 's|@VERSION@|$(VERSION)|' \
	    lib/gpuwise.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/gpuwise.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/gpuwise.pc
	$(INSTALL) -m 0644 docs/man/gpuwise.1 $(DESTDIR)$(MANDIR)/man1/gpuwise.1
	$(INSTALL) -m 0644 $(BUILD)/completion/gpuwise.bash $(DESTDIR)$(BASHCOMPDIR)/gpuwise
	$(INSTALL) -m 0644 $(BUILD)/completion/_gpuwise $(DESTDIR)$(ZSHCOMPDIR)/_gpuwise
	$(INSTALL) -m 0644 $(BUILD)/completion/gpuwise.fish $(DESTDIR)$(FISHCOMPDIR)/gpuwise.fish
	for mo in $(MO_FILES); do $(INSTALL) -D -m 0644 $$mo $(DESTDIR)$(LOCALEDIR)/$${mo#$(BUILD)/locale/}; done
	for f in $(DEPLOY_FILES); do $(INSTALL) -d $(DESTDIR)$(DATADIR)/gpuwise/$$(dirname $${f#deploy/}) && \
		sed 's|/usr/local/bin/gpuwise|$(BINDIR)/gpuwise|g' $$f > $(DESTDIR)$(DATADIR)/gpuwise/$${f#deploy/} && \
		chmod $$([ -x $$f ] && echo 0755 || echo 0644) $(DESTDIR)$(DATADIR)/gpuwise/$${f#deploy/} || exit 1; done

# Removes what install wrote and the one folder that is gpuwise's own.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/gpuwise 2>/dev/null
	-rmdir $(addprefix $(DESTDIR)$(DATADIR)/gpuwise/,$(sort $(dir $(DEPLOY_FILES:deploy/%=%)))) $(DESTDIR)$(DATADIR)/gpuwise 2>/dev/null

# For tests and packaging: the list of installed paths, one a line.
print-installed:
	@printf '%s\n' $(INSTALLED)

# Maintainers: refresh po/gpuwise.pot from the sources and merge it into
# every po/*.po (then translate what msgfmt --statistics calls untranslated).
po:
	$(PYTHON) scripts/update-po

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
