# mk/install.mk: the shared runtime library and installing fiber (PREFIX, DESTDIR).
#   build/lib/libfiberrt.so   -> libfiberrt.so.0 -> libfiberrt.so.$(VERSION): the runtime's objects
#                             built again with -fPIC -fvisibility=hidden in $(B)/pic, so only
#                             fiber*() is exported
#   make install              fiberc, libfiber.a, the public headers, fiber.mk, fiberc.1; fibersim,
#                             libfiberrt.a and .so, fiber.h, fiber_device.cuh (FIBER intrinsics for
#                             nvcc: docs/fiber-cuda.md), fiber.pc, fibersim.1. `cc $(pkg-config
#                             --cflags --libs fiber)` then builds host programs (fiber.pc sets an
#                             rpath to $(LIBDIR)); `nvcc -ptx $(pkg-config --cflags fiber)` finds
#                             fiber_device.cuh
#   make uninstall
.PHONY: install uninstall
INSTALL      ?= install
BINDIR       := $(PREFIX)/bin
LIBDIR       := $(PREFIX)/lib
INCDIR       := $(PREFIX)/include/fiber
DATADIR      := $(PREFIX)/share/fiber
MAN1DIR      := $(PREFIX)/share/man/man1
PKGCONFIGDIR := $(LIBDIR)/pkgconfig
PUBLIC_HDRS  := ir/ir.h ir/arch.h ir/enc.h ir/ops.h ir/latkeys.h ir/regs.h frontend/sass/frontend.h

# --- the shared runtime library ------------------------------------------------------------------
PIC_B         := $(B)/pic
PIC_OBJS      := $(patsubst $(B)/%,$(PIC_B)/%,$(RT_LIB_OBJS))
PIC_FLAGS     := -fPIC -fvisibility=hidden
RT_SO_MAJOR   := $(firstword $(subst ., ,$(VERSION)))
RT_SONAME     := libfiberrt.so.$(RT_SO_MAJOR)
LIBFIBERRT_SO := $(B)/lib/libfiberrt.so
RT_SO_REAL    := $(B)/lib/libfiberrt.so.$(VERSION)

all: $(LIBFIBERRT_SO) $(B)/lib/$(RT_SONAME)

$(PIC_B)/%.o: %.c | $(PARSER_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) $(WARN) -c -o $@ $<
$(PIC_B)/%.o: $(B)/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(call incs,$<) $(CFLAGS) $(PIC_FLAGS) $(WARN) -c -o $@ $<
$(patsubst $(B)/%,$(PIC_B)/%,$(PARSER_OBJS)): WARN := $(GEN_WARN)
$(PIC_B)/sim/%.o $(PIC_B)/timing/%.o: CFLAGS += $(VECT_FLAG)
$(RT_SO_REAL): $(PIC_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,$(RT_SONAME) -Wl,--no-undefined -o $@ $^ $(RT_LIBS) \
	  $(LDLIBS) -lpthread
$(B)/lib/$(RT_SONAME) $(LIBFIBERRT_SO): $(RT_SO_REAL)
	ln -sf $(notdir $<) $@

# --- install / uninstall -------------------------------------------------------------------------
install: $(FIBERC) $(LIBFIBER) $(FIBERSIM) $(LIBFIBERRT) $(RT_SO_REAL)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	  $(DESTDIR)$(DATADIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 755 $(FIBERC) $(DESTDIR)$(BINDIR)/fiberc
	$(INSTALL) -m 644 $(LIBFIBER) $(DESTDIR)$(LIBDIR)/libfiber.a
	$(INSTALL) -m 644 $(PUBLIC_HDRS) $(DESTDIR)$(INCDIR)/
	$(INSTALL) -m 644 mk/fiber.mk $(DESTDIR)$(DATADIR)/fiber.mk
	$(INSTALL) -m 644 man/fiberc.1 $(DESTDIR)$(MAN1DIR)/fiberc.1
	$(INSTALL) -m 755 $(FIBERSIM) $(DESTDIR)$(BINDIR)/fibersim
	$(INSTALL) -m 644 $(LIBFIBERRT) $(DESTDIR)$(LIBDIR)/libfiberrt.a
	$(INSTALL) -m 755 $(RT_SO_REAL) $(DESTDIR)$(LIBDIR)/libfiberrt.so.$(VERSION)
	ln -sf libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(RT_SONAME)
	ln -sf libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libfiberrt.so
	$(INSTALL) -m 644 runtime/fiber.h $(DESTDIR)$(INCDIR)/fiber.h
	$(INSTALL) -m 644 runtime/fiber_device.cuh $(DESTDIR)$(INCDIR)/fiber_device.cuh
	$(INSTALL) -m 644 man/fibersim.1 $(DESTDIR)$(MAN1DIR)/fibersim.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCDIR@|$(INCDIR)|g' \
	  -e 's|@VERSION@|$(VERSION)|g' mk/fiber.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/fiber.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fiberc $(DESTDIR)$(LIBDIR)/libfiber.a \
	  $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(PUBLIC_HDRS))) \
	  $(DESTDIR)$(DATADIR)/fiber.mk $(DESTDIR)$(MAN1DIR)/fiberc.1
	rm -f $(DESTDIR)$(BINDIR)/fibersim $(DESTDIR)$(LIBDIR)/libfiberrt.a \
	  $(DESTDIR)$(LIBDIR)/libfiberrt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(RT_SONAME) \
	  $(DESTDIR)$(LIBDIR)/libfiberrt.so $(DESTDIR)$(INCDIR)/fiber.h \
	  $(DESTDIR)$(INCDIR)/fiber_device.cuh \
	  $(DESTDIR)$(MAN1DIR)/fibersim.1 $(DESTDIR)$(PKGCONFIGDIR)/fiber.pc
	@rmdir $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCDIR) $(DESTDIR)$(DATADIR) 2>/dev/null || true
