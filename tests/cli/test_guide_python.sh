# Every pandas snippet of docs/user-guide.md runs (on the demo history, see
# test_guide.sh) and writes its plots to files; skipped without pandas,
# matplotlib, networkx or plotly (Debian: python3-pandas python3-matplotlib
# python3-networkx python3-plotly).
. "$(dirname "$0")/lib.sh" "$@"
PY=$(find_python pandas matplotlib networkx sqlite3 plotly) ||
	skip "no python3 with pandas, matplotlib, networkx and plotly"
guide_setup
n=$(python3 "$HERE/helpers/guide_snippets.py" "$SRC/docs/user-guide.md" python py)
[ "$n" -ge 2 ] || fail "only $n Python snippets in the user guide"
for f in py/*.python; do
	step "guide: $f"
	expect_exit 0 env MPLBACKEND=Agg "$PY" "$f"
	cat "$OUT" | tee -a py.out
done
grep -qE '^[0-9]+ sections, [0-9]+ edges$' py.out || fail "no graph read by networkx"
grep -qE '^[1-9][0-9]* flows between [1-9][0-9]* lineages$' py.out || fail "no flows drawn by plotly"
grep -q 'Sankey' flows.html || fail "flows.html holds no Sankey diagram"
for f in sections.png lineage.png bus_factor.png quiet.png; do
	[ -s "$f" ] || fail "the pandas snippets did not save $f"
	[ "$(head -c 4 "$f" | tail -c 3)" = PNG ] || fail "$f is not a PNG"
done
echo "PASS"
