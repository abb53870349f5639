# Parad: an automatic-differentiation compiler for C, on the LLVM 19 C API.
#
#   make            build bin/parad-cc (the compiler driver) and bin/parad (IR -> IR, for tests)
#   make check      run the whole test suite (ends with "N passed, N failed")
#   make demo       differentiate the example program and check it against finite differences
#   make bench      run the benchmark programs
#   make SAN=address,undefined check    the same, with the tool built under sanitizers
#   make install PREFIX=dir             (after make) bin/, lib/, include/, share/doc/parad/ under dir; relocatable

LLVM_CONFIG ?= llvm-config-19
CLANG       ?= $(shell $(LLVM_CONFIG) --bindir)/clang
CC          := $(CLANG)
SAN         ?=

LLVM_CFLAGS := $(shell $(LLVM_CONFIG) --cflags)
LLVM_LIBS   := $(shell $(LLVM_CONFIG) --ldflags) -lLLVM-19 -lstdc++ -Wl,-rpath,$(shell $(LLVM_CONFIG) --libdir)

PARAD_VERSION := $(shell cat VERSION)
CFLAGS  := -std=c11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror=incompatible-pointer-types \
           -Werror=implicit-function-declaration -Isrc $(LLVM_CFLAGS) \
           -DPARAD_CLANG='"$(CLANG)"' -DPARAD_VERSION='"$(PARAD_VERSION)"'
LDFLAGS :=
ifneq ($(SAN),)
  CFLAGS  += -fsanitize=$(SAN) -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=$(SAN)
  BUILD   := build/san
else
  BUILD   := build/rel
endif

# The transformation library: everything but the two programs' main files.
LIB_SRC  := $(wildcard src/ir/*.c src/analysis/*.c src/rules/*.c src/forward/*.c src/reverse/*.c src/ad/*.c src/omp/*.c src/mpi/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
DRV_SRC  := $(wildcard src/driver/*.c)
DRV_OBJ  := $(DRV_SRC:%.c=$(BUILD)/%.o)
TOOL_OBJ := $(BUILD)/src/tool/parad.o

# The runtime linked into every program parad-cc links. Its MPI part (mpi*.c) is compiled against each MPI
# library found (Open MPI through $(MPICC), MPICH through $(MPICC_MPICH)), into a library of its own per
# MPI, linked only when a program uses it: parad-cc picks the one matching the program's link line.
MPI_RT   := $(wildcard src/runtime/mpi*.c)
RT_SRC   := $(filter-out $(MPI_RT),$(wildcard src/runtime/*.c))
RT_OBJ   := $(RT_SRC:%.c=build/rt/%.o)
RT_CFLAGS := -std=c11 -O2 -gdwarf-4 -fPIC -Wall -Wextra -Iinclude -Isrc/runtime

MPICC       ?= mpicc
MPICC_MPICH ?= mpicc.mpich
HAVE_MPI    := $(shell command -v $(MPICC) >/dev/null 2>&1 && echo yes)
HAVE_MPICH  := $(shell command -v $(MPICC_MPICH) >/dev/null 2>&1 && echo yes)

all: bin/parad-cc bin/parad-c++ bin/parad-llvm-ar bin/parad-llvm-ranlib bin/parad lib/libparad_rt.a $(if $(HAVE_MPI),lib/libparad_mpi.a) $(if $(HAVE_MPICH),lib/libparad_mpich.a)

lib/libparad_mpi.a: $(MPI_RT:%.c=build/rt-mpi/%.o)
lib/libparad_mpich.a: $(MPI_RT:%.c=build/rt-mpich/%.o)
lib/libparad_mpi.a lib/libparad_mpich.a:
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^

# the wrappers compile with our clang (Open MPI reads OMPI_CC, MPICH reads MPICH_CC)
build/rt-mpi/%.o: %.c
	@mkdir -p $(dir $@)
	OMPI_CC=$(CLANG) MPICH_CC=$(CLANG) $(MPICC) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

build/rt-mpich/%.o: %.c
	@mkdir -p $(dir $@)
	MPICH_CC=$(CLANG) $(MPICC_MPICH) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

lib/libparad_rt.a: $(RT_OBJ)
	@mkdir -p lib
	rm -f $@ && ar rcs $@ $^

build/rt/%.o: %.c
	@mkdir -p $(dir $@)
	$(CLANG) $(RT_CFLAGS) -MMD -MP -c -o $@ $<

# bin/ holds one build kind at a time; switching kinds (SAN=...) relinks through this stamp.
$(shell mkdir -p bin; echo '$(SAN)' | cmp -s - bin/.build-kind || echo '$(SAN)' > bin/.build-kind)

bin/parad-cc: $(DRV_OBJ) $(BUILD)/libparad.a bin/.build-kind
	$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LLVM_LIBS)

bin/parad-c++: bin/parad-cc
	ln -sf parad-cc $@

# CMake's interprocedural optimisation looks for the archiver of a compiler named parad-cc as parad-llvm-ar
# beside it (the name's prefix, as for a cross compiler): LLVM's own.
bin/parad-llvm-ar bin/parad-llvm-ranlib:
	ln -sf $(shell $(LLVM_CONFIG) --bindir)/$(patsubst bin/parad-%,%,$@) $@

bin/parad: $(TOOL_OBJ) $(BUILD)/libparad.a bin/.build-kind
	$(CC) $(LDFLAGS) -o $@ $(filter %.o %.a,$^) $(LLVM_LIBS)

$(BUILD)/libparad.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(DRV_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(RT_OBJ:.o=.d) $(MPI_RT:%.c=build/rt-mpi/%.d) $(MPI_RT:%.c=build/rt-mpich/%.d)

check: all
	./scripts/run-tests

demo: all
	./scripts/demo

bench: all
	./scripts/bench

# An installed tree finds its include/ and lib/ from where bin/parad-cc is: it may be moved anywhere.
# It installs what `make` built (and builds nothing: the test suite installs the tree it tests).
PREFIX ?= /usr/local
install:
	@test -x bin/parad-cc || { echo "make install: run make first"; exit 1; }
	install -d $(PREFIX)/bin $(PREFIX)/lib $(PREFIX)/include $(PREFIX)/share/doc/parad
	install -m 755 bin/parad-cc bin/parad $(PREFIX)/bin/
	ln -sf parad-cc $(PREFIX)/bin/parad-c++
	cp -P bin/parad-llvm-ar bin/parad-llvm-ranlib $(PREFIX)/bin/
	install -m 644 lib/*.a $(PREFIX)/lib/
	install -m 644 include/*.h $(PREFIX)/include/
	install -m 644 README.md docs/design.md $(PREFIX)/share/doc/parad/

clean:
	rm -rf build bin lib tests/out
.PHONY: all check demo bench clean install
