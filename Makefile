# Makefile - builds e2layout, its tests and its sanitizer build.
#   make            ./e2layout
#   make demo       build, make demo.img if missing, open it
#   make man        only the manual page, $(BUILD)/gen/e2layout.$(MANSECT)
#                   (no compiler needed: help/gen_man.sh)
#   make check      unit, compatibility, robustness, exit-status and TUI tests
#   make check-asan the same, built with -fsanitize=address,undefined
#   make fuzz       libFuzzer harnesses, FUZZ_SECONDS (60) each
#   make compat     the debugfs compatibility harnesses and the table of
#                   requests, and e2fsprogs's own debugfs tests with e2layout
#   make compat-calls  those tests' every debugfs call through both programs
#   make bench      the performance harness: bench/run.sh -> bench/RESULTS.md
#   make index      INDEX.md: request -> file -> help page -> tests
#   make deps       apt-get what the build and tests need (when missing)
#   make install    PREFIX=/usr/local DESTDIR= BINDIR=$(PREFIX)/sbin
#                   MANDIR=$(PREFIX)/share/man MANSECT=8 (e2fsprogs's places)
#   make uninstall  removes what install installed (same variables)
#   CPPFLAGS, CFLAGS and LDFLAGS are used as given (dpkg-buildflags)

BUILD	?= build
SAN	?=
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/sbin
MANSECT	?= 8
MANDIR	?= $(PREFIX)/share/man
DOCDIR	?= $(PREFIX)/share/doc/e2layout
COMPDIR	?= $(PREFIX)/share/bash-completion/completions
CC	?= cc

PKGS_CORE := ext2fs e2p com_err blkid libtracefs libtraceevent libcrypto
DEB_DEPS  := libext2fs-dev comerr-dev libblkid-dev libncurses-dev \
	     libreadline-dev \
	     libcmocka-dev pkg-config e2fsprogs fdisk tmux gcc make \
	     hyperfine time jq clang \
	     libtracefs-dev libtraceevent-dev libssl-dev fio bonnie++ dbench \
	     groff-base man-db python3 python3-jsonschema locales strace

CFLAGS	?= -O2 -g
WARN	:= -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
	   -Wstrict-prototypes -Wno-format-nonliteral
ifeq ($(CI),true)
WARN	+= -Werror
endif
ifneq ($(SAN),)
CFLAGS	+= -fsanitize=address,undefined -fno-omit-frame-pointer \
	   -fno-sanitize-recover=undefined
LDFLAGS	+= -fsanitize=address,undefined
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS_CORE) ncursesw 2>/dev/null)
# Loaded with dlopen by the one face that needs each (core/session/dynlib.h),
# not linked: libcrypto by a live move (core/live/sha256.c), libtracefs and
# libtraceevent by the experiment counters (core/experiment/tracefs_dl.c),
# ncurses by the full-screen view (tui/curses_dl.c), readline by the
# interactive shell (debugfs-compat/shell/rl_dl.c); libm, too, by the
# experiment statistics (core/experiment/math_dl.c).  Their headers are still
# needed to build.
DL_PKGS    := libcrypto libtracefs libtraceevent
CORE_LIBS  := $(shell pkg-config --libs $(filter-out $(DL_PKGS),$(PKGS_CORE)) \
		2>/dev/null)
# The program's start, every run: -O1 and --as-needed (no library linked
# that is not used), relative relocations packed (DT_RELR: the tables the
# loader walks went from 58 KB to 1) and the debugging sections compressed
# (a cold start reads whole files where readahead is large, 8 MB on the
# bench machine: 5.1 MB became 3.1), each where the toolchain has it.
comma      := ,
ld_opt      = $(shell printf 'int main(void){return 0;}\n' | \
		$(CC) -x c - -o /dev/null $(1) 2>/dev/null && echo '$(1)')
LINK_OPT   := -Wl,-O1 -Wl,--as-needed \
	      $(call ld_opt,-Wl$(comma)-z$(comma)pack-relative-relocs) \
	      $(call ld_opt,-Wl$(comma)--compress-debug-sections=zlib)
# The debugging sections go to $(BIN).debug, named by a debuglink that gdb
# and addr2line follow: the program a cold start reads is 1.7 MB smaller
# (its debugging sections, compressed, were half of it).  Not under SAN,
# whose reports symbolize from the program itself.
SPLIT_DEBUG = if command -v objcopy >/dev/null 2>&1; then \
		objcopy --only-keep-debug $@ $@.debug && \
		objcopy --strip-debug --add-gnu-debuglink=$@.debug $@; fi
# the unit tests check the statistics against libm directly: they link it
TEST_LIBS  := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka) -lm
# every folder of the engine is on the include path: headers are named by
# their file name alone, and a file may move between folders without edits
SRC_DIRS   := $(sort $(shell find core debugfs-compat tui labs help -type d \
		2>/dev/null))
ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -I. $(addprefix -I,$(SRC_DIRS)) \
	      $(PKG_CFLAGS) $(WARN) $(CPPFLAGS) $(CFLAGS)

BIN	:= $(if $(filter build,$(BUILD)),e2layout,$(BUILD)/e2layout)

# layers (DEVELOPERS.md): the engine and e2layout's own requests, debugfs's
# requests, the labs, and the front ends; each layer is a library
CORE_SRC   := $(sort $(shell find core -name '*.c'))
DFS_SRC    := $(sort $(wildcard debugfs-compat/*.c))
LABS_SRC   := $(sort $(wildcard labs/*.c))
TUI_SRC    := $(sort $(wildcard tui/*.c))
MAN_SRC    := $(sort $(wildcard help/*.c))
SHELL_SRC  := $(sort $(wildcard debugfs-compat/shell/*.c))
CMD_SRC    := $(CORE_SRC) $(DFS_SRC)
HELP_SRC   := $(sort $(wildcard help/cmd/*.txt help/topics/*.txt help/labs/*.lab))
FRONT_SRC  := main.c $(SHELL_SRC) $(TUI_SRC) $(MAN_SRC)
CORE_OBJ   := $(CORE_SRC:%.c=$(BUILD)/%.o)
DFS_OBJ    := $(DFS_SRC:%.c=$(BUILD)/%.o)
LABS_OBJ   := $(LABS_SRC:%.c=$(BUILD)/%.o)
GEN_OBJ    := $(BUILD)/gen/cmd_table.o $(BUILD)/gen/help_data.o
FRONT_OBJ  := $(FRONT_SRC:%.c=$(BUILD)/%.o)
CORE_LIB   := $(BUILD)/libe2l-core.a
DFS_LIB    := $(BUILD)/libe2l-debugfs.a
LABS_LIB   := $(BUILD)/libe2l-labs.a
# what a program links: the registry's generated tables, then the layers
# above core before core itself
E2L_LINK   := $(GEN_OBJ) $(DFS_LIB) $(LABS_LIB) $(CORE_LIB)
DEPS_OK    := $(BUILD)/deps.ok

UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# tests/unit's other sources (testlib.c, fixtures) link into every unit test
TESTLIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(filter-out $(UNIT_SRC),\
	       $(wildcard tests/unit/*.c)))

.SECONDARY: $(TESTLIB_OBJ)
.PHONY: all man deps demo check check-asan compat compat-calls bench install \
	uninstall clean index check-deps lint golden-update \
	unit-tests test-images fuzz fuzz-build
all: $(BIN) $(DEPS_OK)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/gen/cmd_table.c: $(CMD_SRC) tests/lib/gen_cmd_table.sh
	@mkdir -p $(dir $@)
	sh tests/lib/gen_cmd_table.sh $@ $(CMD_SRC)

$(BUILD)/gen/help_data.c: $(HELP_SRC) help/gen_help.sh
	@mkdir -p $(dir $@)
	sh help/gen_help.sh $@ $(HELP_SRC)

# The manual page, made on the build machine from help/ and the request
# sources without running e2layout (cross builds; SOURCE_DATE_EPOCH or the
# last commit dates it); `e2layout --man` prints the same page, compiled in.
MAN_PAGE   := $(BUILD)/gen/e2layout.$(MANSECT)
MAN_GEN    := help/gen_man.sh help/gen_man.awk help/man.in help/version.h

# The compiled-in copy is made from a page of its own name, so that an
# install with another MANSECT (a page of another name) never remakes it.
MAN_BUILT  := $(BUILD)/gen/man_page.roff

$(MAN_PAGE) $(MAN_BUILT): $(MAN_GEN) $(CMD_SRC) $(HELP_SRC)
	@mkdir -p $(dir $@)
	sh help/gen_man.sh $@ $(MANSECT) help/man.in help/version.h \
		-- $(CMD_SRC) -- $(HELP_SRC)

$(BUILD)/gen/man_page.c: $(MAN_BUILT) help/gen_man.sh
	sh help/gen_man.sh --c $@ $(MAN_BUILT)

man: $(MAN_PAGE)

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(CORE_LIB): $(CORE_OBJ)
$(DFS_LIB): $(DFS_OBJ)
$(LABS_LIB): $(LABS_OBJ)
$(CORE_LIB) $(DFS_LIB) $(LABS_LIB):
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(FRONT_OBJ) $(BUILD)/gen/man_page.o $(E2L_LINK)
	$(CC) $(CFLAGS) $(LINK_OPT) $(LDFLAGS) -o $@ $(FRONT_OBJ) \
		$(BUILD)/gen/man_page.o \
		$(E2L_LINK) $(CORE_LIBS)
ifeq ($(SAN),)
	$(SPLIT_DEBUG)
endif

# The layering rule (tests/lib/check_deps.sh): core uses nothing of
# debugfs-compat, labs, tui or help; debugfs-compat and labs use core only;
# tui and help use core and labs.  Fails naming the symbol and the object.
$(DEPS_OK): $(CORE_OBJ) $(DFS_OBJ) $(LABS_OBJ) $(FRONT_OBJ) \
		tests/lib/check_deps.sh
	@sh tests/lib/check_deps.sh core: $(CORE_OBJ) dfs: $(DFS_OBJ) \
		labs: $(LABS_OBJ) tui: $(TUI_SRC:%.c=$(BUILD)/%.o) \
		help: $(MAN_SRC:%.c=$(BUILD)/%.o) \
		front: $(BUILD)/main.o $(SHELL_SRC:%.c=$(BUILD)/%.o)
	@touch $@

check-deps: $(DEPS_OK)

# Unit tests link the libraries without curses or readline: a stray
# terminal call in core/, debugfs-compat/ or labs/ fails to link here.
$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJ) $(E2L_LINK)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(TESTLIB_OBJ) $(E2L_LINK) \
		$(CORE_LIBS) $(TEST_LIBS)

unit-tests: $(UNIT_BIN)

# The shared test images do not depend on the build: one set, made once
# (mkimages.sh remakes it only when it or the demo generator changes), serves
# make check and make check-asan alike.
TESTIMG	:= build/testimg
test-images: $(BIN)
	sh tests/lib/mkimages.sh $(TESTIMG) $(abspath $(BIN))

check: $(BIN) $(DEPS_OK) $(UNIT_BIN) test-images
	E2LAYOUT=$(abspath $(BIN)) E2L_IMAGES=$(abspath $(TESTIMG)) \
	E2L_BUILD=$(abspath $(BUILD)) sh tests/run_all.sh

# both harnesses (read requests, then write scripts), then the table of every
# debugfs request (debugfs-compat/STATUS.md is written only here); then e2fsprogs's own debugfs tests with e2layout as
# debugfs, test by test and call by call (skipped, saying so, without
# ../shared/e2fsprogs-suite); fails when any case differs
compat: $(BIN) test-images
	@export E2LAYOUT=$(abspath $(BIN)) E2L_IMAGES=$(abspath $(TESTIMG)) \
	  E2L_BUILD=$(abspath $(BUILD)); rc=0; \
	sh tests/compat/t_debugfs_compat.sh || rc=1; \
	sh tests/compat/t_write_compat.sh || rc=1; \
	sh tests/compat/t_corpus_compat.sh || rc=1; \
	sh tests/compat/gen_status.sh || rc=1; \
	echo; sh tests/compat/gen_status.sh --table || rc=1; \
	for m in --tests --calls; do echo; \
	  sh tests/compat/suite_compat.sh $$m; r=$$?; \
	  [ $$r -eq 0 ] || [ $$r -eq 77 ] || rc=1; done; exit $$rc

# only the e2fsprogs suite's call-by-call comparison (about 2 minutes)
compat-calls: $(BIN)
	@E2LAYOUT=$(abspath $(BIN)) sh tests/compat/suite_compat.sh --calls

# INDEX.md, from the sources, help/ and tests/ (tests/layout/t_index.sh,
# run by make check, fails when the committed one is stale)
index:
	sh tests/lib/gen_index.sh > INDEX.md.tmp && mv INDEX.md.tmp INDEX.md

check-asan:
	$(MAKE) BUILD=build-asan SAN=1 check

# rewrites tests/golden/*.expect from what this build prints (review the
# diff: it is a change of what e2layout's requests are specified to print)
golden-update: $(BIN) test-images
	E2LAYOUT=$(abspath $(BIN)) E2L_IMAGES=$(abspath $(TESTIMG)) \
	E2L_BUILD=$(abspath $(BUILD)) E2L_GOLDEN_UPDATE=1 \
		sh tests/golden/t_golden.sh

# cppcheck over every source folder (CI runs it: .ci/run); clean on the tree.
# A false positive is silenced where it is, with a cppcheck-suppress comment
# saying why.
CPPCHECK ?= cppcheck
lint:
	$(CPPCHECK) -q -j2 --enable=warning,portability --std=c11 \
		-D_GNU_SOURCE --inline-suppr --error-exitcode=1 \
		$(addprefix -I,$(SRC_DIRS)) $(wildcard $(SRC_DIRS:%=%/*.c)) main.c

bench: $(BIN)
	E2LAYOUT=$(abspath $(BIN)) bash bench/run.sh

demo: $(BIN)
	@test -f demo.img || ./$(BIN) mkdemo demo.img
	./$(BIN) demo.img

# libFuzzer harnesses (tests/fuzz/): the core rebuilt with clang's coverage
# instrumentation and sanitizers, beside $(BUILD).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CFLAGS  := -std=gnu11 -D_GNU_SOURCE -I. $(addprefix -I,$(SRC_DIRS)) \
		$(PKG_CFLAGS) -g -O1 \
		-fno-omit-frame-pointer -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined
FUZZ_CORE    := $(CORE_SRC:%.c=$(FUZZ_DIR)/%.o) $(DFS_SRC:%.c=$(FUZZ_DIR)/%.o) \
		$(LABS_SRC:%.c=$(FUZZ_DIR)/%.o)
FUZZ_GEN     := $(FUZZ_DIR)/gen/cmd_table.o $(FUZZ_DIR)/gen/help_data.o
FUZZ_BINS    := $(FUZZ_DIR)/fuzz_image $(FUZZ_DIR)/fuzz_cmdline

$(FUZZ_CORE): $(FUZZ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_GEN): $(FUZZ_DIR)/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BINS): $(FUZZ_DIR)/%: tests/fuzz/%.c tests/fuzz/fuzz_common.h \
		$(FUZZ_CORE) $(FUZZ_GEN)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CORE) \
		$(FUZZ_GEN) $(CORE_LIBS)

fuzz-build: $(FUZZ_BINS)

# make check-asan builds the harnesses with the rest of the sanitizer build
# (make -j: beside it), so that tests/fuzz/t_fuzz_smoke.sh only runs them
ifneq ($(SAN),)
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
check: fuzz-build
endif
endif

fuzz: fuzz-build
	sh tests/fuzz/run_fuzz.sh $(abspath $(FUZZ_DIR)) $(FUZZ_SECONDS)

deps:
	@missing=""; for p in $(DEB_DEPS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else echo "all build and test dependencies are installed"; fi

SCHEMAS := $(sort $(wildcard help/schema/*.json help/schema/result/*.json \
	     help/schema/lab/*.json) help/schema/no_result.txt)

# the page's section follows MANSECT (e2fsprogs's tools are in section 8)
install: $(BIN) $(MAN_PAGE)
	install -D -m 755 $(BIN) $(DESTDIR)$(BINDIR)/e2layout
	install -D -m 644 $(MAN_PAGE) \
		$(DESTDIR)$(MANDIR)/man$(MANSECT)/e2layout.$(MANSECT)
	install -D -m 644 help/e2layout.bash-completion \
		$(DESTDIR)$(COMPDIR)/e2layout
	for f in $(SCHEMAS:help/schema/%=%); do \
		install -D -m 644 help/schema/$$f $(DESTDIR)$(DOCDIR)/schema/$$f \
		|| exit 1; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/e2layout \
		$(DESTDIR)$(MANDIR)/man$(MANSECT)/e2layout.$(MANSECT) \
		$(DESTDIR)$(COMPDIR)/e2layout \
		$(addprefix $(DESTDIR)$(DOCDIR)/schema/,$(SCHEMAS:help/schema/%=%))
	-rmdir $(DESTDIR)$(DOCDIR)/schema/result $(DESTDIR)$(DOCDIR)/schema/lab \
		$(DESTDIR)$(DOCDIR)/schema \
		$(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -rf build build-asan e2layout e2layout.debug

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
