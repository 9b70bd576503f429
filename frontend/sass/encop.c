/* encop.c: the opcode bits of the first encoding word (bits 0..8; bits 9..11 choose the operand
 * form: register, immediate, constant bank, uniform register) of every opcode family of
 * ir/ops.h that occurs in the listings bundled under examples/, tests/corpus/ and bench/
 * (nvdisasm -hex output of nvcc 13, sm_80 to sm_90a): for each instruction line, the opcode word
 * after the guard and bits 0..8 of the word in its encoding comment, collected over those files
 * (a row per family, in the order of ops.h), and whether bits 16..23 held the register of the
 * first operand in each of them that had one (rd). tests/check_parse.c checks that every
 * instruction of those listings agrees with it; a listing added there with a new form adds its
 * bits here.
 * Families without a row are not checked (docs/ir.md).
 */
#include "parse.h"

#include <threads.h>

static const struct {
	uint16_t op;       /* enum Op */
	uint8_t rd;        /* bits 16..23 hold the destination (the first operand, R or UR): so in
	                    * every instruction of the family seen with a register there (at least
	                    * 3, and ops.h gives the family a definition) */
	uint16_t bits[4];  /* the values of bits 0..8 it has been seen with; 0 ends the list */
} encop[] = {
	{ OIADD3, 1, { 0x010 } },
	{ OVIADD, 1, { 0x036 } },
	{ OLEA, 1, { 0x011 } },
	{ OLOP3, 1, { 0x012 } },
	{ OSHF, 1, { 0x019 } },
	{ OPRMT, 1, { 0x016 } },
	{ OSEL, 1, { 0x007 } },
	{ OIMNMX, 1, { 0x017 } },
	{ OVIMNMX, 1, { 0x048 } },
	{ OVIMNMX3, 0, { 0x00f } },
	{ OVIADDMNMX, 1, { 0x046 } },
	{ OIABS, 1, { 0x013 } },
	{ OVABSDIFF, 1, { 0x014 } },
	{ OVABSDIFF4, 0, { 0x015 } },
	{ OSGXT, 1, { 0x01a } },
	{ OBMSK, 1, { 0x01b } },
	{ OISETP, 0, { 0x00c } },
	{ OPLOP3, 0, { 0x01c } },
	{ OR2P, 0, { 0x004 } },
	{ OMOV, 1, { 0x002 } },
	{ OIMAD, 1, { 0x024, 0x025, 0x027 } },
	{ OIDP, 1, { 0x026 } },
	{ OPOPC, 1, { 0x109 } },
	{ OFLO, 1, { 0x100 } },
	{ OBREV, 1, { 0x101 } },
	{ OFADD, 1, { 0x021 } },
	{ OFMUL, 1, { 0x020 } },
	{ OFFMA, 1, { 0x023 } },
	{ OFMNMX, 1, { 0x009 } },
	{ OFSEL, 1, { 0x008 } },
	{ OFSET, 1, { 0x00a } },
	{ OFSETP, 0, { 0x00b } },
	{ OFCHK, 0, { 0x102 } },
	{ OMUFU, 1, { 0x108 } },
	{ ODADD, 1, { 0x029 } },
	{ ODMUL, 1, { 0x028 } },
	{ ODFMA, 1, { 0x02b } },
	{ ODSETP, 0, { 0x02a } },
	{ OHADD2, 1, { 0x030 } },
	{ OHFMA2, 1, { 0x031, 0x035 } },
	{ OHMNMX2, 1, { 0x040 } },
	{ OHSET2, 1, { 0x033 } },
	{ OHSETP2, 0, { 0x034 } },
	{ OI2F, 1, { 0x106, 0x112 } },
	{ OF2I, 1, { 0x105, 0x111 } },
	{ OF2F, 1, { 0x110 } },
	{ OFRND, 1, { 0x107, 0x113 } },
	{ OI2I, 1, { 0x038 } },
	{ OI2FP, 1, { 0x045 } },
	{ OF2FP, 1, { 0x03e } },
	{ OI2IP, 1, { 0x039 } },
	{ OS2R, 1, { 0x119 } },
	{ OCS2R, 1, { 0x005 } },
	{ OB2R, 1, { 0x11c } },
	{ OSHFL, 0, { 0x189 } },
	{ OVOTE, 0, { 0x006 } },
	{ OMATCH, 1, { 0x1a1 } },
	{ OREDUX, 1, { 0x1c4 } },
	{ OELECT, 0, { 0x02f } },
	{ ONOP, 0, { 0x118 } },
	{ OHMMA, 1, { 0x03c } },
	{ OIMMA, 1, { 0x037 } },
	{ OBMMA, 1, { 0x03d } },
	{ OQMMA, 0, { 0x07a } },
	{ ODMMA, 0, { 0x03f } },
	{ OHGMMA, 0, { 0x1f0 } },
	{ OIGMMA, 0, { 0x1f1 } },
	{ OQGMMA, 0, { 0x1f3 } },
	{ OBGMMA, 0, { 0x1f2 } },
	{ OWARPGROUP, 0, { 0x1c5 } },
	{ OLDSM, 1, { 0x03b } },
	{ OSTSM, 0, { 0x044 } },
	{ OMOVM, 0, { 0x03a } },
	{ OLD, 1, { 0x180 } },
	{ OLDG, 1, { 0x181 } },
	{ OLDS, 1, { 0x184 } },
	{ OLDL, 1, { 0x183 } },
	{ OLDC, 1, { 0x182 } },
	{ OST, 0, { 0x185 } },
	{ OSTG, 0, { 0x186 } },
	{ OSTS, 0, { 0x188 } },
	{ OSTL, 0, { 0x187 } },
	{ OSTAS, 0, { 0x1bd } },
	{ OLDGSTS, 0, { 0x1ae } },
	{ OLDGMC, 0, { 0x1a5 } },
	{ OATOM, 0, { 0x18a, 0x18b, 0x1a2 } },
	{ OATOMG, 0, { 0x1a3, 0x1a8, 0x1a9 } },
	{ OATOMS, 1, { 0x18c, 0x18d } },
	{ ORED, 0, { 0x18e } },
	{ OREDG, 0, { 0x18e, 0x1a6 } },
	{ OREDAS, 0, { 0x1be } },
	{ OLDGDEPBAR, 0, { 0x1af } },
	{ ODEPBAR, 0, { 0x11a } },
	{ OARRIVES, 0, { 0x1b0 } },
	{ OSYNCS, 1, { 0x1a7, 0x1b1, 0x1b2 } },
	{ OMEMBAR, 0, { 0x192 } },
	{ OFENCE, 0, { 0x1c6 } },
	{ OERRBAR, 0, { 0x1ab } },
	{ OCGAERRBAR, 0, { 0x1ab } },
	{ OCCTL, 0, { 0x18f } },
	{ OQSPC, 0, { 0x1aa } },
	{ OUTMALDG, 0, { 0x1b4 } },
	{ OUTMASTG, 0, { 0x1b5 } },
	{ OUTMAREDG, 0, { 0x1b6 } },
	{ OUTMAPF, 0, { 0x1b8 } },
	{ OUTMACCTL, 0, { 0x1b9 } },
	{ OUTMACMDFLUSH, 0, { 0x1b7 } },
	{ OUBLKCP, 0, { 0x1ba } },
	{ OUBLKRED, 0, { 0x1bb } },
	{ OUBLKPF, 0, { 0x1bc } },
	{ OTEX, 0, { 0x160 } },
	{ OTLD, 0, { 0x166 } },
	{ OTLD4, 0, { 0x163 } },
	{ OTXD, 0, { 0x16c } },
	{ OSULD, 0, { 0x199 } },
	{ OSUST, 0, { 0x19d } },
	{ OBRA, 0, { 0x147 } },
	{ OBRX, 0, { 0x149 } },
	{ OCALL, 0, { 0x144 } },
	{ ORET, 0, { 0x150 } },
	{ OEXIT, 0, { 0x14d } },
	{ OBPT, 0, { 0x15c } },
	{ OBSSY, 0, { 0x145 } },
	{ OBSYNC, 0, { 0x141 } },
	{ OBMOV, 0, { 0x155, 0x156 } },
	{ OWARPSYNC, 0, { 0x148 } },
	{ OBAR, 0, { 0x11d } },
	{ OUCGABAR_ARV, 0, { 0x1c7 } },
	{ OUCGABAR_WAIT, 0, { 0x1c7 } },
	{ OENDCOLLECTIVE, 0, { 0x11b } },
	{ OYIELD, 0, { 0x146 } },
	{ ONANOSLEEP, 0, { 0x15d } },
	{ OACQBULK, 0, { 0x02e } },
	{ OPREEXIT, 0, { 0x02d } },
	{ OUIADD3, 1, { 0x090, 0x097 } },
	{ OUIMAD, 1, { 0x0a4, 0x0a5 } },
	{ OUMOV, 1, { 0x082 } },
	{ OULEA, 1, { 0x091 } },
	{ OULOP3, 1, { 0x092 } },
	{ OUSHF, 1, { 0x099 } },
	{ OUPRMT, 1, { 0x096 } },
	{ OUSEL, 1, { 0x087 } },
	{ OUFLO, 1, { 0x0bd } },
	{ OUPOPC, 1, { 0x0bf } },
	{ OUBREV, 1, { 0x0be } },
	{ OUISETP, 0, { 0x08c } },
	{ OUP2UR, 0, { 0x083 } },
	{ OUR2UP, 0, { 0x084 } },
	{ OULDC, 1, { 0x0b9 } },
	{ OS2UR, 1, { 0x1c3 } },
	{ OR2UR, 1, { 0x0ca, 0x1c2 } },
	{ OVOTEU, 0, { 0x086 } },
	{ OUSETMAXREG, 0, { 0x1c8 } },
};

enum { MaxShare = 4 };  /* rows that may hold the same opcode bits */

/* the rows indexed by family and by opcode bits, made once (call_once): a listing has an
 * instruction per line, and a scan of the table for each was most of fiberc's checking time */
static struct {
	int16_t row[NOp];             /* row of each family, -1 none */
	uint16_t op[512][MaxShare];   /* families whose row holds these bits, in table order */
	uint8_t n[512];
} ix;
static once_flag ix_once = ONCE_FLAG_INIT;

static void
ix_build(void)
{
	for (int op = 0; op < NOp; op++)
		ix.row[op] = -1;
	for (size_t k = 0; k < sizeof encop / sizeof encop[0]; k++) {
		if (ix.row[encop[k].op] < 0)
			ix.row[encop[k].op] = (int16_t)k;
		for (int j = 0; j < 4 && encop[k].bits[j]; j++) {
			unsigned v = encop[k].bits[j] & 0x1ff;
			if (ix.n[v] == MaxShare)
				die("encop: more than %d families share the opcode bits 0x%03x", MaxShare, v);
			ix.op[v][ix.n[v]++] = encop[k].op;
		}
	}
}

/* another family whose row holds the opcode bits of word, or -1; *known: op has a row, *self:
 * op's row holds them */
int
enc_family(int op, uint64_t word, int *known, int *self)
{
	unsigned v = GET_OPCODE(word);
	int other = -1;

	call_once(&ix_once, ix_build);
	*known = op >= 0 && op < NOp && ix.row[op] >= 0;
	*self = 0;
	for (int j = 0; j < ix.n[v]; j++) {
		if (ix.op[v][j] == op)
			*self = 1;
		else if (other < 0)
			other = ix.op[v][j];
	}
	return other;
}

/* bits 16..23 of the first word hold the register of op's first operand (when it is an R or UR
 * register) */
int
enc_dest(int op)
{
	call_once(&ix_once, ix_build);
	return op >= 0 && op < NOp && ix.row[op] >= 0 ? encop[ix.row[op]].rd : 0;
}
