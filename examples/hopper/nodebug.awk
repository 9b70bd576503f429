# nodebug.awk: drop the DWARF and line-table sections (.debug_*, .nv_debug_*) from an nvdisasm
# listing: sass-dump compiles with -lineinfo, and these sections are most of a listing's size
# while neither fiberc nor fibersim reads them.
/^\t\.section/ { skip = ($2 ~ /^\.(debug_|nv_debug_)/) }
!skip
