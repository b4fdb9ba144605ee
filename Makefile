# gpuwise — build everything into $(BUILD). See README.md.
#   make            CLI, library, fake vendor libraries
#   make test       set up (scripts/setup), build, run every test suite
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
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -fPIC $(WARN) -Iinclude -Ilib -I$(BUILD)/gen $(CFLAGS)
LDLIBS := -ldl -lpthread -lm

LIB_SRC := $(sort $(wildcard lib/*/*.c lib/*/*/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
FAKE_COMMON := fake/machine.c lib/core/jsonp.c
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_REPLAY := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%-replay)

GEN_HDR := $(patsubst data/%.tsv,$(BUILD)/gen/%.h,$(wildcard data/*.tsv))

.PHONY: all test run clean unit fuzz-replay check-format
all: $(BUILD)/gpuwise $(BUILD)/libgpuwise.a $(BUILD)/libgpuwise.so \
     $(BUILD)/fake/libnvidia-ml.so.1 $(BUILD)/fake/libcuda.so.1 $(UNIT_BIN) $(FUZZ_REPLAY)

$(BUILD)/gen/%.h: data/%.tsv scripts/gen-table
	@mkdir -p $(dir $@)
	$(PYTHON) scripts/gen-table $< $@

$(BUILD)/obj/%.o: %.c $(GEN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libgpuwise.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/libgpuwise.so: $(LIB_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/gpuwise: $(CLI_OBJ) $(BUILD)/libgpuwise.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libgpuwise.a $(LDLIBS)

# The fake vendor libraries: built from fake/ plus the JSON reader, never
# from the rest of lib/ (they must not share gpuwise's NVML code paths).
$(BUILD)/fake/libnvidia-ml.so.1: fake/fake_nvml.c $(FAKE_COMMON) fake/machine.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_nvml.c $(FAKE_COMMON) -lpthread -Wl,-soname,libnvidia-ml.so.1
	ln -sf libnvidia-ml.so.1 $(BUILD)/fake/libnvidia-ml.so

$(BUILD)/fake/libcuda.so.1: fake/fake_cuda.c $(FAKE_COMMON) fake/machine.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DGW_JSON_STANDALONE -fvisibility=hidden -shared $(LDFLAGS) -o $@ fake/fake_cuda.c $(FAKE_COMMON) -lpthread -Wl,-soname,libcuda.so.1
	ln -sf libcuda.so.1 $(BUILD)/fake/libcuda.so

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libgpuwise.a tests/unit/check.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libgpuwise.a $(LDLIBS)

# Fuzz targets built as plain programs that replay their corpus.
$(BUILD)/fuzz/%-replay: tests/fuzz/%.c tests/fuzz/replay_main.c $(BUILD)/libgpuwise.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay_main.c $(BUILD)/libgpuwise.a $(LDLIBS)

test:
	bash scripts/setup
	bash tests/run.sh

run: all
	./$(BUILD)/gpuwise doctor

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
