"""The standings chart: well-formed, accessible SVG drawn from standings snapshots; a line per
top player with a point per round, every text escaped, a clear message with no rounds."""

import xml.etree.ElementTree as ET

from frontend.tournaments.standings_chart import EMPTY_MESSAGE, chart_lines, standings_chart

SVG = "{http://www.w3.org/2000/svg}"


def snapshot(points: dict[str, int], dropped=()) -> list[dict]:
    """Snapshot rows (best first) from {name: match points}; ids are the names' order."""
    names = sorted(points, key=lambda n: (-points[n], n))
    return [{"player": f"id-{n}", "name": n, "rank": rank, "match_points": points[n],
             "dropped": n in dropped} for rank, n in enumerate(names, start=1)]


def lines(svg: str) -> list[ET.Element]:
    return [g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "chart-line"]


def legend(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(g.find(f"{SVG}text").itertext()) for g in root.iter(f"{SVG}g")
            if g.get("class") == "chart-legend-item"]


THREE_ROUNDS = [
    (1, snapshot({"ney": 3, "soult": 3, "picton": 0, "uxbridge": 0})),
    (2, snapshot({"ney": 6, "soult": 3, "picton": 3, "uxbridge": 0})),
    (3, snapshot({"ney": 9, "soult": 6, "picton": 3, "uxbridge": 0}, dropped={"uxbridge"})),
]


def test_a_line_per_player_and_a_point_per_round():
    svg = standings_chart(THREE_ROUNDS)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    drawn = lines(svg)
    # drawn last to first, so that the leader's line is on top
    assert [g.get("data-name") for g in drawn] == ["uxbridge", "picton", "soult", "ney"]
    by_name = {g.get("data-name"): g for g in drawn}
    assert by_name["ney"].get("data-points") == "3,6,9"
    assert by_name["picton"].get("data-points") == "0,3,3"
    for g in drawn:
        assert len(g.findall(f"{SVG}circle")) == 3  # one marker per round
        polyline = g.find(f"{SVG}polyline")
        assert len(polyline.get("points").split()) == 4  # the start, then each round
    assert legend(svg) == ["1. ney · 9", "2. soult · 6", "3. picton · 3",
                           "4. uxbridge (dropped) · 0"]


def test_higher_points_are_drawn_higher_and_lines_start_together():
    svg = standings_chart(THREE_ROUNDS)
    by_name = {g.get("data-name"): g for g in lines(svg)}

    def last_y(name):
        return float(by_name[name].find(f"{SVG}polyline").get("points").split()[-1].split(",")[1])

    assert last_y("ney") < last_y("soult") < last_y("picton") < last_y("uxbridge")
    starts = {by_name[n].find(f"{SVG}polyline").get("points").split()[0] for n in by_name}
    assert len(starts) == 1


def test_only_the_top_players_are_drawn_in_rank_order():
    field = {f"p{i:02}": 30 - i for i in range(12)}
    rounds = [(1, snapshot({n: p // 3 for n, p in field.items()})), (2, snapshot(field))]
    assert len(lines(standings_chart(rounds))) == 8
    assert len(lines(standings_chart(rounds, top=3))) == 3
    _, chosen = chart_lines(rounds, top=3)
    assert [c["name"] for c in chosen] == ["p00", "p01", "p02"]
    desc = ET.fromstring(standings_chart(rounds)).find(f"{SVG}desc").text
    assert "the top 8 of 12 players" in desc and "p00 leads with 30 match points" in desc


def test_names_are_escaped_and_the_svg_stays_well_formed():
    nasty = '<script>alert("x")</script> & Co \'n\''
    rounds = [(1, snapshot({nasty: 3, "a<b": 0})), (2, snapshot({nasty: 6, "a<b": 3}))]
    svg = standings_chart(rounds, title="Cup <&>")
    assert "<script>" not in svg and "a<b" not in svg
    root = ET.fromstring(svg)  # well-formed: every < and & escaped
    assert root.find(f"{SVG}title").text == "Cup <&>"
    assert {g.get("data-name") for g in lines(svg)} == {nasty, "a<b"}
    assert legend(svg)[1] == "2. a<b · 3"
    assert any(nasty in (t.text or "") for t in root.iter(f"{SVG}title"))  # full name, untruncated


def test_accessible_title_desc_and_view_box_scaling():
    root = ET.fromstring(standings_chart(THREE_ROUNDS, ident="chart-7"))
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert root.get("aria-labelledby") == "chart-7-title chart-7-desc"
    assert (title.get("id"), desc.get("id")) == ("chart-7-title", "chart-7-desc")
    assert "ney leads with 9 match points" in desc.text
    width = float(root.get("viewBox").split()[2])
    assert root.get("viewBox").startswith("0 0 ") and width <= 400  # scales down to 375 px
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "Round" in texts and "Match points" in texts and {"1", "2", "3"} <= set(texts)
    point_titles = [t.text for c in root.iter(f"{SVG}circle") for t in c.findall(f"{SVG}title")]
    assert "ney: 6 match points after round 2" in point_titles


def test_no_rounds_yet_draws_a_clear_message():
    for empty in ([], None, [(1, [])], [("x", None)]):
        svg = standings_chart(empty)
        root = ET.fromstring(svg)
        assert root.get("role") == "img" and not lines(svg)
        assert EMPTY_MESSAGE in "".join(root.itertext())
        assert "No rounds yet" in root.find(f"{SVG}desc").text


def test_a_player_missing_from_an_early_snapshot_skips_that_point():
    late = [(1, snapshot({"ney": 3, "soult": 0})),
            (2, snapshot({"ney": 3, "soult": 3, "grouchy": 3}))]
    by_name = {g.get("data-name"): g for g in lines(standings_chart(late))}
    assert by_name["grouchy"].get("data-points") == ",3"
    assert len(by_name["grouchy"].findall(f"{SVG}circle")) == 1


def test_long_names_are_shortened_in_the_legend_and_rounds_can_be_many():
    name = "Marshal Michel Ney, Prince of the Moskva"
    rounds = [(n, snapshot({name: 3 * n, "b": n})) for n in range(1, 16)]
    svg = standings_chart(rounds)
    shown = legend(svg)[0]
    assert shown.startswith("1. Marshal Michel") and "…" in shown and shown.endswith(" · 45")
    assert len(shown) <= 28  # fits its legend column
    root = ET.fromstring(svg)
    item = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart-legend-item")
    assert item.find(f"{SVG}title").text == f"1. {name}: 45 match points"  # in full
    marks = [float(t.text) for t in root.iter(f"{SVG}text") if (t.text or "").isdigit()
             and t.get("text-anchor") == "end"]
    assert max(marks) >= 45 and len(marks) <= 9  # the match point axis is not crowded


def test_equal_scores_are_drawn_apart():
    """Issue 28: players on the same match points overlapped; now each round's points on one
    score are at least a point's width (7 px) apart, and still nearer their score than any
    other."""
    rows = [{"player": i, "name": n, "rank": i, "match_points": 3, "dropped": False}
            for i, n in enumerate(("ney", "soult", "grouchy"), start=1)]
    svg = standings_chart([(1, rows), (2, [{**r, "match_points": 6} for r in rows])])
    points = {}
    for g in lines(svg):
        for i, c in enumerate(g.findall(f"{SVG}circle")):
            points.setdefault(i, []).append(float(c.get("cy")))
    for ys in points.values():
        ys.sort()
        assert all(b - a >= 7 for a, b in zip(ys, ys[1:], strict=False)), ys
