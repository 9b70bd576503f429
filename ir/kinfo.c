/* kinfo.c: kernel metadata that a pass changes, written back everywhere the listing states it,
 * so that the printed listing loads (frontend/sass/nvinfo.c decodes it again in fibersim) with the
 * values the pass chose: the register count (KInfo.regcount, EIATTR_REGCOUNT of .nv.info and
 * `.sectioninfo @"SHI_REGISTERS=N"` of the text section), the frame (KInfo.frame_size and
 * min_stack_size, EIATTR_FRAME_SIZE and EIATTR_MIN_STACK_SIZE), and the FIBER-native
 * declarations that allocation consumes (.vreg, .vpred). Used by fiber-ra and regalloc.
 *
 * The attributes of the global .nv.info are nvdisasm's `//----- nvinfo : EIATTR_X` comment, a
 * header, then `.word index@(fn)` and `.word VALUE`: the value word after the function's index
 * is rewritten. A frame attribute the listing lacks is appended to .nv.info in the same form.
 */
#include "ir.h"

#include <stdio.h>
#include <string.h>

/* the value word of attribute `attr` for f in the .nv.info sections set to v: how many */
static int
set_word(Fn *f, const char *attr, int v)
{
	Module *m = f->mod;
	int n = 0;

	for (uint32_t k = 0; k < m->nsec; k++) {
		Section *s = m->sec[k];
		int in = 0;
		if (s->kind != SecInfo)
			continue;
		for (uint32_t j = 0; j < s->nitem; j++) {
			Item *it = &s->item[j];
			if (it->kind == INvinfo) {
				in = strcmp(mstr(m, it->name), attr) == 0;
				continue;
			}
			if (!in || it->kind != IDir || strcmp(mstr(m, it->name), ".word") != 0 ||
			    it->narg != 1 || it->arg[0]->kind != EFunc || !it->arg[0]->a ||
			    it->arg[0]->a->kind != ESym || it->arg[0]->a->atom != f->name)
				continue;
			for (uint32_t q = j + 1; q < s->nitem; q++) {
				Item *w = &s->item[q];
				if (w->kind == IDir && strcmp(mstr(m, w->name), ".word") == 0 && w->narg == 1
				    && w->arg[0]->kind == ENum) {
					Expr *e = arena_alloc(m->arena, sizeof *e);
					*e = *w->arg[0];
					e->num = v;
					w->arg[0] = e;
					n++;
					break;
				}
				if (w->kind != ILabel)
					break;
			}
		}
	}
	return n;
}

static Expr *
num(Module *m, int64_t v, int hex)
{
	Expr *e = arena_alloc(m->arena, sizeof *e);

	e->kind = ENum;
	e->hex = (uint8_t)hex;
	e->num = v;
	return e;
}

static Item *
dir(Module *m, Section *s, const char *name, uint32_t narg)
{
	Item *it = section_item(m, s);

	it->kind = IDir;
	it->name = mintern(m, name);
	it->narg = narg;
	it->arg = arena_alloc(m->arena, (narg + 1) * sizeof *it->arg);
	return it;
}

/* attribute `attr` (code `code`, a size payload of index@(fn) and a word) appended to the
 * global .nv.info; 0, or -1 if the listing has none */
static int
add_word(Fn *f, const char *attr, int code, int v)
{
	Module *m = f->mod;
	Section *s = NULL;
	Item *it;

	for (uint32_t k = 0; k < m->nsec && !s; k++)
		if (m->sec[k]->kind == SecInfo && strcmp(mstr(m, m->sec[k]->name), ".nv.info") == 0)
			s = m->sec[k];
	if (!s)
		return -1;
	it = section_item(m, s);
	it->kind = INvinfo;
	it->name = mintern(m, attr);
	dir(m, s, ".align", 1)->arg[0] = num(m, 4, 0);
	it = dir(m, s, ".byte", 2);
	it->arg[0] = num(m, 4, 1);
	it->arg[1] = num(m, code, 1);
	dir(m, s, ".short", 1)->arg[0] = num(m, 8, 1);
	dir(m, s, ".align", 1)->arg[0] = num(m, 4, 0);
	it = dir(m, s, ".word", 1);
	it->arg[0] = arena_alloc(m->arena, sizeof *it->arg[0]);
	it->arg[0]->kind = EFunc;
	it->arg[0]->atom = mintern(m, "index");
	it->arg[0]->a = arena_alloc(m->arena, sizeof *it->arg[0]->a);
	it->arg[0]->a->kind = ESym;
	it->arg[0]->a->atom = f->name;
	dir(m, s, ".word", 1)->arg[0] = num(m, v, 1);
	return 0;
}

void
kinfo_regcount(Fn *f, int n)
{
	Module *m = f->mod;
	char buf[64];

	f->info.regcount = n;
	set_word(f, "EIATTR_REGCOUNT", n);
	if (!f->text)
		return;
	for (uint32_t j = 0; j < f->text->nitem; j++) {
		Item *it = &f->text->item[j];
		const char *t;
		if (it->kind == IDir && strcmp(mstr(m, it->name), ".sectioninfo") == 0 &&
		    it->narg == 1 && it->arg[0]->kind == EAttr && (t = mstr(m, it->arg[0]->atom)) &&
		    strstr(t, "SHI_REGISTERS=")) {
			Expr *e = arena_alloc(m->arena, sizeof *e);
			*e = *it->arg[0];
			snprintf(buf, sizeof buf, "SHI_REGISTERS=%d", n);
			e->atom = mintern(m, buf);
			it->arg[0] = e;
		}
	}
}

int
kinfo_frame(Fn *f, int frame, int min_stack)
{
	int rc = 0;

	f->info.frame_size = frame;
	if (!set_word(f, "EIATTR_FRAME_SIZE", frame))
		rc = add_word(f, "EIATTR_FRAME_SIZE", 0x11, frame);
	if (min_stack >= 0) {
		f->info.min_stack_size = min_stack;
		if (!set_word(f, "EIATTR_MIN_STACK_SIZE", min_stack) && rc == 0)
			rc = add_word(f, "EIATTR_MIN_STACK_SIZE", 0x12, min_stack);
	}
	return rc;
}

void
kinfo_drop_vregs(Fn *f)
{
	Module *m = f->mod;

	if (!f->text)
		return;
	for (uint32_t j = 0; j < f->text->nitem; j++) {
		Item *it = &f->text->item[j];
		const char *t = mstr(m, it->name);
		if (it->kind == IDir && (strcmp(t, ".vreg") == 0 || strcmp(t, ".vpred") == 0)) {
			memmove(it, it + 1, (f->text->nitem - j - 1) * sizeof *it);
			f->text->nitem--;
			j--;
		}
	}
}
