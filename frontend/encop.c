/* encop.c: the opcode bits of the first encoding word (bits 0..8; bits 9..11 choose the operand
 * form: register, immediate, constant bank, uniform register) of every opcode family of
 * ir/ops.h that occurs in the listings bundled under examples/, tests/corpus/ and bench/
 * (nvdisasm -hex output of nvcc 13, sm_80 to sm_90a): for each instruction line, the opcode word
 * after the guard and bits 0..8 of the word in its encoding comment, collected over those files
 * (a row per family, in the order of ops.h). tests/check_parse.c checks that every instruction
 * of those listings agrees with it; a listing added there with a new form adds its bits here.
 * Families without a row are not checked (docs/ir.md).
 */
#include "parse.h"

static const struct {
	uint16_t op;       /* enum Op */
	uint16_t bits[4];  /* the values of bits 0..8 it has been seen with; 0 ends the list */
} encop[] = {
	{ OIADD3, { 0x010 } },
	{ OVIADD, { 0x036 } },
	{ OLEA, { 0x011 } },
	{ OLOP3, { 0x012 } },
	{ OSHF, { 0x019 } },
	{ OPRMT, { 0x016 } },
	{ OSEL, { 0x007 } },
	{ OIMNMX, { 0x017 } },
	{ OVIMNMX, { 0x048 } },
	{ OVIMNMX3, { 0x00f } },
	{ OVIADDMNMX, { 0x046 } },
	{ OIABS, { 0x013 } },
	{ OVABSDIFF, { 0x014 } },
	{ OVABSDIFF4, { 0x015 } },
	{ OSGXT, { 0x01a } },
	{ OBMSK, { 0x01b } },
	{ OISETP, { 0x00c } },
	{ OPLOP3, { 0x01c } },
	{ OR2P, { 0x004 } },
	{ OMOV, { 0x002 } },
	{ OIMAD, { 0x024, 0x025, 0x027 } },
	{ OIDP, { 0x026 } },
	{ OPOPC, { 0x109 } },
	{ OFLO, { 0x100 } },
	{ OBREV, { 0x101 } },
	{ OFADD, { 0x021 } },
	{ OFMUL, { 0x020 } },
	{ OFFMA, { 0x023 } },
	{ OFMNMX, { 0x009 } },
	{ OFSEL, { 0x008 } },
	{ OFSET, { 0x00a } },
	{ OFSETP, { 0x00b } },
	{ OFCHK, { 0x102 } },
	{ OMUFU, { 0x108 } },
	{ ODADD, { 0x029 } },
	{ ODMUL, { 0x028 } },
	{ ODFMA, { 0x02b } },
	{ ODSETP, { 0x02a } },
	{ OHADD2, { 0x030 } },
	{ OHFMA2, { 0x031, 0x035 } },
	{ OHMNMX2, { 0x040 } },
	{ OHSET2, { 0x033 } },
	{ OHSETP2, { 0x034 } },
	{ OI2F, { 0x106, 0x112 } },
	{ OF2I, { 0x105, 0x111 } },
	{ OF2F, { 0x110 } },
	{ OFRND, { 0x107, 0x113 } },
	{ OI2I, { 0x038 } },
	{ OI2FP, { 0x045 } },
	{ OF2FP, { 0x03e } },
	{ OI2IP, { 0x039 } },
	{ OS2R, { 0x119 } },
	{ OCS2R, { 0x005 } },
	{ OB2R, { 0x11c } },
	{ OSHFL, { 0x189 } },
	{ OVOTE, { 0x006 } },
	{ OMATCH, { 0x1a1 } },
	{ OREDUX, { 0x1c4 } },
	{ OELECT, { 0x02f } },
	{ ONOP, { 0x118 } },
	{ OHMMA, { 0x03c } },
	{ OIMMA, { 0x037 } },
	{ OBMMA, { 0x03d } },
	{ OQMMA, { 0x07a } },
	{ ODMMA, { 0x03f } },
	{ OHGMMA, { 0x1f0 } },
	{ OIGMMA, { 0x1f1 } },
	{ OQGMMA, { 0x1f3 } },
	{ OBGMMA, { 0x1f2 } },
	{ OWARPGROUP, { 0x1c5 } },
	{ OLDSM, { 0x03b } },
	{ OSTSM, { 0x044 } },
	{ OMOVM, { 0x03a } },
	{ OLD, { 0x180 } },
	{ OLDG, { 0x181 } },
	{ OLDS, { 0x184 } },
	{ OLDL, { 0x183 } },
	{ OLDC, { 0x182 } },
	{ OST, { 0x185 } },
	{ OSTG, { 0x186 } },
	{ OSTS, { 0x188 } },
	{ OSTL, { 0x187 } },
	{ OSTAS, { 0x1bd } },
	{ OLDGSTS, { 0x1ae } },
	{ OLDGMC, { 0x1a5 } },
	{ OATOM, { 0x18a, 0x18b, 0x1a2 } },
	{ OATOMG, { 0x1a3, 0x1a8, 0x1a9 } },
	{ OATOMS, { 0x18c, 0x18d } },
	{ ORED, { 0x18e } },
	{ OREDG, { 0x18e, 0x1a6 } },
	{ OREDAS, { 0x1be } },
	{ OLDGDEPBAR, { 0x1af } },
	{ ODEPBAR, { 0x11a } },
	{ OARRIVES, { 0x1b0 } },
	{ OSYNCS, { 0x1a7, 0x1b1, 0x1b2 } },
	{ OMEMBAR, { 0x192 } },
	{ OFENCE, { 0x1c6 } },
	{ OERRBAR, { 0x1ab } },
	{ OCGAERRBAR, { 0x1ab } },
	{ OCCTL, { 0x18f } },
	{ OQSPC, { 0x1aa } },
	{ OUTMALDG, { 0x1b4 } },
	{ OUTMASTG, { 0x1b5 } },
	{ OUTMAREDG, { 0x1b6 } },
	{ OUTMAPF, { 0x1b8 } },
	{ OUTMACCTL, { 0x1b9 } },
	{ OUTMACMDFLUSH, { 0x1b7 } },
	{ OUBLKCP, { 0x1ba } },
	{ OUBLKRED, { 0x1bb } },
	{ OUBLKPF, { 0x1bc } },
	{ OTEX, { 0x160 } },
	{ OTLD, { 0x166 } },
	{ OTLD4, { 0x163 } },
	{ OTXD, { 0x16c } },
	{ OSULD, { 0x199 } },
	{ OSUST, { 0x19d } },
	{ OBRA, { 0x147 } },
	{ OBRX, { 0x149 } },
	{ OCALL, { 0x144 } },
	{ ORET, { 0x150 } },
	{ OEXIT, { 0x14d } },
	{ OBPT, { 0x15c } },
	{ OBSSY, { 0x145 } },
	{ OBSYNC, { 0x141 } },
	{ OBMOV, { 0x155, 0x156 } },
	{ OWARPSYNC, { 0x148 } },
	{ OBAR, { 0x11d } },
	{ OUCGABAR_ARV, { 0x1c7 } },
	{ OUCGABAR_WAIT, { 0x1c7 } },
	{ OENDCOLLECTIVE, { 0x11b } },
	{ OYIELD, { 0x146 } },
	{ ONANOSLEEP, { 0x15d } },
	{ OACQBULK, { 0x02e } },
	{ OPREEXIT, { 0x02d } },
	{ OUIADD3, { 0x090, 0x097 } },
	{ OUIMAD, { 0x0a4, 0x0a5 } },
	{ OUMOV, { 0x082 } },
	{ OULEA, { 0x091 } },
	{ OULOP3, { 0x092 } },
	{ OUSHF, { 0x099 } },
	{ OUPRMT, { 0x096 } },
	{ OUSEL, { 0x087 } },
	{ OUFLO, { 0x0bd } },
	{ OUPOPC, { 0x0bf } },
	{ OUBREV, { 0x0be } },
	{ OUISETP, { 0x08c } },
	{ OUP2UR, { 0x083 } },
	{ OUR2UP, { 0x084 } },
	{ OULDC, { 0x0b9 } },
	{ OS2UR, { 0x1c3 } },
	{ OR2UR, { 0x0ca, 0x1c2 } },
	{ OVOTEU, { 0x086 } },
	{ OUSETMAXREG, { 0x1c8 } },
};

/* another family whose row holds the opcode bits of word, or -1; *known: op has a row, *self:
 * op's row holds them */
int
enc_family(int op, uint64_t word, int *known, int *self)
{
	unsigned v = (unsigned)(word & 0x1ff);
	int other = -1;

	*known = *self = 0;
	for (size_t k = 0; k < sizeof encop / sizeof encop[0]; k++) {
		int has = 0;
		for (int j = 0; j < 4 && encop[k].bits[j]; j++)
			has |= encop[k].bits[j] == v;
		if (encop[k].op == op)
			*known = 1;
		if (!has)
			continue;
		if (encop[k].op == op)
			*self = 1;
		else if (other < 0)
			other = encop[k].op;
	}
	return other;
}
