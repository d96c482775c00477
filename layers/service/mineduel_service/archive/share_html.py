"""The share page's HTML, as ``string.Template`` texts filled by ``share_page``.

The standard library's ``Template`` is enough for one page and a handful of fragments, and it
has no logic of its own that could evaluate anything: every value put in is already escaped by
the caller (``share_page.text``), and ``substitute`` fails loudly on a placeholder left unfilled.
The page carries its own small stylesheet and no script at all.
"""

from __future__ import annotations

from string import Template

STYLE = """
:root { color-scheme: light dark; --ink: #1d2330; --muted: #5b6475; --card: #ffffff;
  --back: #eef1f6; --line: #d6dbe4; --win: #1f7a4d; --accent: #c0392b; }
@media (prefers-color-scheme: dark) { :root { --ink: #e8ebf1; --muted: #a3abba;
  --card: #1c212b; --back: #12151b; --line: #2f3644; --win: #48c78e; --accent: #ff6b5b; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--back); }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.brand { font-weight: 700; letter-spacing: .04em; color: var(--accent); margin: 0; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: .6rem 0 .3rem; overflow-wrap: anywhere; }
.outcome { color: var(--muted); margin: 0 0 1.2rem; }
.seats { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: .8rem;
  list-style: none; padding: 0; margin: 0 0 1.2rem; }
.seat { background: var(--card); border: 1px solid var(--line); border-radius: .8rem;
  padding: .9rem; display: grid; grid-template-columns: 4rem 1fr; gap: .2rem .8rem;
  align-items: center; }
.seat.first { border-color: var(--win); box-shadow: 0 0 0 1px var(--win) inset; }
.avatar { grid-row: span 3; width: 4rem; height: 4rem; border-radius: 50%; object-fit: cover;
  background: var(--line); display: flex; align-items: center; justify-content: center;
  font-size: 1.6rem; font-weight: 700; color: var(--muted); }
.name { font-weight: 650; overflow-wrap: anywhere; }
.place { font-size: .85rem; color: var(--muted); }
.seat.first .place { color: var(--win); font-weight: 650; }
.mines { font-size: 1.4rem; font-weight: 700; }
.run { font-size: .85rem; color: var(--muted); grid-column: 2; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .6rem;
  margin: 0 0 1.2rem; }
.facts div { background: var(--card); border: 1px solid var(--line); border-radius: .6rem;
  padding: .6rem .8rem; }
.facts dt { font-size: .8rem; color: var(--muted); }
.facts dd { margin: 0; font-weight: 650; }
.verify { font-size: .95rem; }
.analysis { background: var(--card); border: 1px solid var(--line); border-radius: .8rem;
  padding: .8rem 1rem; margin: 0 0 1.2rem; }
.analysis h2 { font-size: 1.05rem; margin: 0 0 .4rem; }
.analysis p { color: var(--muted); font-size: .9rem; margin: .2rem 0 .5rem; }
.chart { display: block; max-width: 100%; height: auto; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .tick { fill: var(--muted); font-size: 11px; }
.luck { list-style: none; padding: 0; margin: .5rem 0 0; font-size: .9rem; }
.luck li { margin: .15rem 0; }
.luck .key { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px;
  margin-right: .4rem; vertical-align: -1px; }
a { color: var(--accent); }
code { font-size: .9em; overflow-wrap: anywhere; }
.app { font-weight: 650; }
"""

PAGE = Template(
    """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · MineDuel</title>
<meta name="description" content="$description">
$head
<style>$style</style>
</head>
<body>
<main>
<p class="brand">MineDuel</p>
$body
</main>
</body>
</html>
"""
)

SHARE_HEAD = Template(
    """<link rel="canonical" href="$url">
<meta property="og:site_name" content="MineDuel">
<meta property="og:type" content="website">
<meta property="og:title" content="$title">
<meta property="og:description" content="$description">
<meta property="og:url" content="$url">
$image
<meta name="twitter:card" content="summary">
<meta name="twitter:title" content="$title">
<meta name="twitter:description" content="$description">"""
)

IMAGE_TAGS = Template(
    """<meta property="og:image" content="$image">
<meta property="og:image:alt" content="$alt">
<meta name="twitter:image" content="$image">
<meta name="twitter:image:alt" content="$alt">"""
)

SHARE_BODY = Template(
    """<h1>$headline</h1>
<p class="outcome">$outcome</p>
<ul class="seats">
$seats
</ul>
<dl class="facts">
<div><dt>Length</dt><dd>$moves</dd></div>
<div><dt>Time</dt><dd>$duration</dd></div>
<div><dt>Lead changes</dt><dd>$lead_changes</dd></div>
</dl>
$analysis
<p class="verify">Every move of this game can be checked without trusting the server:
<a href="$verify" rel="nofollow">verification document</a>
(<code>mineduel verify $verify_absolute</code>). Played $ended on a $board.</p>
<p class="app"><a href="$replay">Watch the game move by move</a> ·
<a href="$play">Play MineDuel</a></p>"""
)

SEAT = Template(
    """<li class="seat$first">
$avatar
<span class="name">$name</span>
<span class="place">$place</span>
<span class="mines">$mines</span>
<span class="run">$run</span>
</li>"""
)

ANALYSIS = Template(
    """<section class="analysis">
<h2>Luck and skill</h2>
<p>Solid: mines found; dashed: mines the chances promised, move by move (the exact chance of
every chosen cell, from the board its player saw). Above the dashed line is luck.
<a href="$link" rel="nofollow">The whole analysis</a>.</p>
$chart
</section>"""
)

ANALYSIS_LATER = Template(
    """<section class="analysis">
<h2>Luck and skill</h2>
<p>$message</p>
</section>"""
)

AVATAR_IMAGE = Template('<img class="avatar" src="$src" alt="" width="64" height="64">')
AVATAR_LETTER = Template('<span class="avatar" aria-hidden="true">$letter</span>')

NOTICE_BODY = Template(
    """<h1>$headline</h1>
<p class="outcome">$message</p>"""
)

NOINDEX = '<meta name="robots" content="noindex">'
