#!/bin/sh
# fiber-sensitivity.sh: each FIBER-native kernel (examples/fiber-native/kernels.txt) on
# a100-fiber with every assumed key of the FIBER SM (docs/fiber-sm.md, [A]) moved one at a time
# over a range around its value, and the band that spans: the lowest and highest cycles of any
# setting, and the FIBER/SIMT ratio's band against the SIMT example on a100 (over the same
# settings). Every FIBER figure can then be quoted with its range. The keys and their settings (the configured value first):
#   fiber_xbar_latency 2: 0 4            fiber_xbar_width 1: 2
#   fiber_read_ports 1: 2                fiber_busy_wake 1: 0 4
#   fiber_setfibernum_cycles 24: 0 48    fiber_ctx_start_cycles 1: 0 4
#   icache_prefetch 8: 0 4 (the stream buffer's depth, an assumption of Hu25's model; a key of
#   both SMs, so its ratio is taken against the SIMT example run with the same setting).
# Environment: FIBERSIM.
set -u
FIBERSIM=${FIBERSIM:-build/bin/fibersim}
dir=examples/fiber-native
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. scripts/fiber-run.sh

knobs="fiber_xbar_latency=0 fiber_xbar_latency=4 fiber_xbar_width=2 fiber_read_ports=2
fiber_busy_wake=0 fiber_busy_wake=4 fiber_setfibernum_cycles=0 fiber_setfibernum_cycles=48
fiber_ctx_start_cycles=0 fiber_ctx_start_cycles=4 icache_prefetch=0 icache_prefetch=4"
printf '%-15s %9s %10s %10s %10s %-13s %s\n' kernel "simt a100" a100-fiber lowest highest \
	"fiber/simt" "the setting at each end"
grep -v '^#' "$dir/kernels.txt" | while read -r file sym grid block smem params simt; do
	[ -n "$file" ] || continue
	a=$(args "$params")
	line=$(grep "^$simt $sym " examples/kernels.txt | head -n 1)
	sgrid=$(echo "$line" | cut -d' ' -f3) sblock=$(echo "$line" | cut -d' ' -f4)
	s=$(cycles "examples/$simt/$simt.sm_80.sass" "$sym" "$sgrid" "$sblock" "$a" a100)
	base=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber)
	lo=$base hi=$base lok=configured hik=configured
	rlo=$(awk -v c="$base" -v s="$s" 'BEGIN { print c / s }') rhi=$rlo
	for k in $knobs; do
		c=$(cycles "$dir/$file.sm_80.fsass" "$sym" "$grid" "$block" "$a" a100-fiber "$k")
		sc=$s
		case $k in icache_*)
			sc=$(cycles "examples/$simt/$simt.sm_80.sass" "$sym" "$sgrid" "$sblock" "$a" a100 "$k")
		esac
		case "$c$sc" in *fail*) lo=fail; break ;; esac
		[ "$c" -lt "$lo" ] && lo=$c lok=$k
		[ "$c" -gt "$hi" ] && hi=$c hik=$k
		r=$(awk -v c="$c" -v s="$sc" 'BEGIN { print c / s }')
		rlo=$(awk -v r="$r" -v l="$rlo" 'BEGIN { print (r < l) ? r : l }')
		rhi=$(awk -v r="$r" -v h="$rhi" 'BEGIN { print (r > h) ? r : h }')
	done
	case "$s$base$lo" in
	*fail*) printf '%-15s %9s %10s %10s\n' "$file" "$s" "$base" fail; continue ;;
	esac
	band=$(awk -v l="$rlo" -v h="$rhi" 'BEGIN { printf "%.2f-%.2f", l, h }')
	printf '%-15s %9s %10s %10s %10s %-13s %s, %s\n' "$file" "$s" "$base" "$lo" "$hi" "$band" \
		"$lok" "$hik"
done
