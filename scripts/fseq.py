#!/usr/bin/env python3
# fseq.py DIR: the templates of backend/isel/ptxsel_fseq.c (after its header comment) from nvcc's
# listings of single PTX instructions, DIR/<name>.c.txt: for each, the kernel
#   ld.global the sources; <instruction>; st.global the result
# assembled with `ptxas -arch=sm_80` and disassembled with `nvdisasm -c`, the addresses, encodings,
# `.reuse` flags and `;` stripped (docs/isel-float.md, "IEEE sequences"). The fast paths are
# written here by hand (the sources renamed $A/$B, the CALL replaced by SLOW); the slow paths are
# taken from the subroutine between its label and the RET, the return-register moves dropped.
# Prints the C arrays; warns on stderr about a temporary that is read or guarded-written before an
# unguarded write in layout order.
import re, sys
SEQ=(sys.argv[1] if len(sys.argv)>1 else '.')+'/'
def slow_body(f):
    L=[l.rstrip('\n') for l in open(SEQ+f+'.c.txt')]
    i=[k for k,l in enumerate(L) if l.startswith('$__internal')][0]
    j=[k for k,l in enumerate(L) if l.startswith('RET.REL')][0]
    body=L[i+1:j]
    # drop the return-register moves after the last label
    last=max(k for k,l in enumerate(body) if l.endswith(':'))
    body=body[:last+1]
    out=[]
    for l in body:
        m=re.match(r'@(!?)(P\d) BRA (!?)(P\d), `\((\.L_x_\d+)\)$',l)
        if m:
            g,pg,c,pc,lab=m.groups()
            assert g=='!' and c=='!', l
            out.append('PLOP3.LUT P6, PT, %s, %s, PT, 0x3, 0x0'%(pg,pc))
            out.append('@P6 BRA `(%s)'%lab)
            continue
        assert 'BRA P' not in l and 'BRA !P' not in l, l
        assert 'CALL' not in l and 'RET' not in l, l
        out.append(l)
    return out

SPECS=[]
def spec(name, f, mode, q, fast, entry, res):
    SPECS.append((name,f,mode,q,fast,entry,res))

spec('div_rn_f32','divrn',32,'R7','''MUFU.RCP R0, $B
FCHK P0, $A, $B
FFMA R7, -$B, R0, 1
FFMA R7, R0, R7, R0
FFMA R0, $A, R7, RZ
FFMA R6, -$B, R0, $A
FFMA R7, R7, R6, R0
@!P0 BRA `(.L_x_99)
SLOW
.L_x_99:''', ['MOV R4, $A','MOV R5, $B','MOV R10, RZ'], 'R4')
spec('div_rn_ftz_f32','divrnftz',32,'R7','''MUFU.RCP R0, $B
FCHK P0, $A, $B
FFMA R7, -$B, R0, 1
FFMA R7, R0, R7, R0
FFMA R0, $A, R7, RZ
FFMA R6, -$B, R0, $A
FFMA R7, R7, R6, R0
@!P0 BRA `(.L_x_99)
SLOW
.L_x_99:''', ['MOV R4, $A','MOV R5, $B'], 'R4')
spec('rcp_rn_f32','rcprn',32,'R5','''IADD3 R0, $A, 0x1800000, RZ
LOP3.LUT R0, R0, 0x7f800000, RZ, 0xc0, !PT
ISETP.GT.U32.AND P0, PT, R0, 0x1ffffff, PT
@P0 BRA `(.L_x_0)
SLOW
BRA `(.L_x_99)
.L_x_0:
MUFU.RCP R5, $A
FFMA R0, $A, R5, -1
FADD.FTZ R0, -R0, -RZ
FFMA R5, R5, R0, R5
.L_x_99:''', ['MOV R4, $A'], 'R5')
spec('rcp_rn_ftz_f32','rcprnftz',32,'R5','''IADD3 R4, $A, 0x1800000, RZ
LOP3.LUT R4, R4, 0x7f800000, RZ, 0xc0, !PT
ISETP.GT.U32.AND P0, PT, R4, 0x1ffffff, PT
@P0 BRA `(.L_x_0)
SLOW
BRA `(.L_x_99)
.L_x_0:
MUFU.RCP R5, $A
FFMA R4, $A, R5, -1
FADD.FTZ R4, -R4, -RZ
FFMA R5, R5, R4, R5
.L_x_99:''', ['MOV R0, $A'], 'R5')
for nm,f in (('sqrt_rn_f32','sqrtrn'),('sqrt_rn_ftz_f32','sqrtrnftz')):
    spec(nm,f,32,'R5','''IADD3 R4, $A, -0xd000000, RZ
MUFU.RSQ R5, $A
ISETP.GT.U32.AND P0, PT, R4, 0x727fffff, PT
@!P0 BRA `(.L_x_0)
SLOW
BRA `(.L_x_99)
.L_x_0:
FMUL.FTZ R7, $A, R5
FMUL.FTZ R5, R5, 0.5
FFMA R0, -R7, R7, $A
FFMA R5, R0, R5, R7
.L_x_99:''', ['MOV R0, $A'], 'R4')
spec('div_rn_f64','ddivrn',64,'R2','''IMAD.MOV.U32 R2, RZ, RZ, 0x1
MUFU.RCP64H R3, $B1
FSETP.GEU.AND P1, PT, |$A1|, 6.5827683646048100446e-37, PT
DFMA R8, -$B, R2, 1
DFMA R8, R8, R8, R8
DFMA R8, R2, R8, R2
DFMA R2, -$B, R8, 1
DFMA R2, R8, R2, R8
DMUL R8, $A, R2
DFMA R10, -$B, R8, $A
DFMA R2, R2, R10, R8
FFMA R0, RZ, $B1, R3
FSETP.GT.AND P0, PT, |R0|, 1.469367938527859385e-39, P1
@P0 BRA `(.L_x_99)
SLOW
.L_x_99:''', ['MOV R4, $A','MOV R5, $A1','MOV R6, $B','MOV R7, $B1'], 'R12')
spec('rcp_rn_f64','drcprn',64,'R6','''MUFU.RCP64H R5, $A1
IADD3 R4, $A1, 0x300402, RZ
FSETP.GEU.AND P0, PT, |R4|, 5.8789094863358348022e-39, PT
DFMA R6, -$A, R4, 1
DFMA R6, R6, R6, R6
DFMA R6, R4, R6, R4
DFMA R8, -$A, R6, 1
DFMA R6, R6, R8, R6
@P0 BRA `(.L_x_99)
LOP3.LUT R0, $A1, 0x7fffffff, RZ, 0xc0, !PT
IADD3 R6, R0, -0x100000, RZ
SLOW
.L_x_99:''', ['MOV R2, $A','MOV R3, $A1'], 'R4')
spec('sqrt_rn_f64','dsqrtrn',64,'R12','''MOV R8, 0x0
IMAD.MOV.U32 R9, RZ, RZ, 0x3fd80000
MUFU.RSQ64H R5, $A1
IADD3 R4, $A1, -0x3500000, RZ
ISETP.GE.U32.AND P0, PT, R4, 0x7ca00000, PT
DMUL R6, R4, R4
DFMA R6, $A, -R6, 1
DFMA R8, R6, R8, 0.5
DMUL R6, R4, R6
DFMA R6, R8, R6, R4
DMUL R8, $A, R6
IADD3 R15, R7, -0x100000, RZ
IMAD.MOV.U32 R14, RZ, RZ, R6
DFMA R10, R8, -R8, $A
DFMA R12, R10, R14, R8
@!P0 BRA `(.L_x_99)
SLOW
.L_x_99:''', ['MOV R2, $A','MOV R3, $A1'], 'R4')
spec('rsqrt_f64','drsqrt',64,'R4','''IMAD.MOV.U32 R4, RZ, RZ, RZ
MOV R9, 0x3fd80000
IMAD.MOV.U32 R8, RZ, RZ, 0x0
MUFU.RSQ64H R5, $A1
IADD3 R0, $A1, -0x100000, RZ
ISETP.GE.U32.AND P0, PT, R0, 0x7fe00000, PT
DMUL R6, R4, R4
DFMA R6, $A, -R6, 1
DFMA R8, R6, R8, 0.5
DMUL R6, R4, R6
DFMA R4, R8, R6, R4
@!P0 BRA `(.L_x_99)
SLOW
.L_x_99:''', ['MOV R2, $A','MOV R3, $A1'], 'R4')

def subst_q(l, mode, q):
    n=int(q[1:])
    if mode==32:
        return re.sub(r'(?<![\w$%%])R%d(?!\w)'%n, '$Q', l)
    l=re.sub(r'(?<![\w$%%])R%d(?!\w)'%(n+1), '$Q1', l)
    return re.sub(r'(?<![\w$%%])R%d(?!\w)'%n, '$Q', l)

def build(s):
    name,f,mode,q,fast,entry,res=s
    lines=[]
    for l in fast.split('\n'):
        if l=='SLOW':
            lines += entry
            lines += slow_body(f)
            if res!=q:
                if mode==32: lines.append('MOV %s, %s'%(q,res))
                else:
                    n=int(res[1:]); lines.append('MOV %s, R%d'%(q,n)); lines.append('MOV R%d, R%d'%(int(q[1:])+1,n+1))
        else: lines.append(l)
    return [subst_q(l,mode,q) for l in lines]

REG=re.compile(r'(?<![\w$%])(R\d+|P\d)(?![\w])')
def check(name, lines):
    # linear check: a register read (or guarded-written) before any unguarded write
    defd=set(); warn=[]
    for l in lines:
        if l.endswith(':'): continue
        g=re.match(r'@!?(P\d) ',l)
        body=l[g.end():] if g else l
        parts=body.split(' ',1)
        ops=[o.strip() for o in parts[1].split(',')] if len(parts)>1 else []
        # dests: leading register operands that are predicates or the first R
        op=parts[0]
        nd=0
        if op.startswith(('ISETP','FSETP','DSETP','PLOP3','LOP3.LUT P','FCHK')) or (op.startswith('LOP3') and ops and ops[0].startswith('P')):
            # predicate dests: leading P/PT operands
            while nd<len(ops) and re.fullmatch(r'P\d|PT|RZ',ops[nd].split()[0] if ops[nd] else ''): nd+=1
            if op.startswith('LOP3'): nd=2
        elif op.startswith(('BRA','BSSY')): nd=0
        elif op.startswith('IADD3') and len(ops)>1 and re.fullmatch(r'P\d',ops[1]): nd=2
        else: nd=1
        if g and g.group(1) not in defd: warn.append('guard before def: '+l)
        for o in ops[nd:]:
            for r in REG.findall(o):
                if r not in defd: warn.append('use before def %s: %s'%(r,l))
        wide = op.startswith(('DFMA','DMUL','DADD','CS2R','DSETP')) 
        for o in ops[:nd]:
            for r in REG.findall(o):
                if g and r not in defd: warn.append('guarded first def %s: %s'%(r,l))
                defd.add(r)
                if wide and mode_of[name]==64 and r.startswith('R'): defd.add('R%d'%(int(r[1:])+1))
    for x in warn: print(name, x, file=sys.stderr)

mode_of={s[0]:s[2] for s in SPECS}
out=[]
for s in SPECS:
    lines=build(s)
    check(s[0],lines)
    out.append('const char *const fseq_%s[] = {'%s[0])
    for l in lines:
        out.append('\t"%s",'%l.replace('\\','\\\\').replace('"','\\"'))
    out.append('\tNULL,\n};\n')
sys.stdout.write('\n'.join(out))
