"""Battle membership checked card by card (issue 29; catalogue 1.3.0): plain data, no Django.

For every card and every one of the four battles, a verdict: was the card's own unit
**engaged** there (rule B1: the unit, or a part of it, fought), only **present** (on the
field or marching to it, not engaged), or **absent**? Specials and terrain are not units:
their verdict is **pool** (in the battle's historical pool by rule S1 or by the terrain rule,
README "Special cards" and "Terrain") or absent.

Each verdict has a **basis**: ``B1`` (a source read says so), ``B2`` (present only, kept for
the Quatre Bras sample game's published counts), ``OUR`` ("our reading": the sources read are
silent or disagree, so the card keeps what it had), ``S1`` / ``TERRAIN`` (the rules for specials
and terrain). Source keys are those of ``../shared/reference/order-of-battle.md`` and the
README's source tables ("Sources for 1.2.0", "Sources for 1.3.0"); ``bk`` is background
knowledge.

``GROUPS`` is grouped by unit, so that a division or a brigade sharing a verdict is one entry;
a battle a group does not name is ``ABSENT`` with ``DEFAULT_ABSENT``'s sources (reference §4:
the formation is not in that battle's order of battle). ``rows()`` expands the groups into
one row per card and battle; ``lists()`` says whether a verdict keeps the battle on the card.
"""

from __future__ import annotations

from typing import NamedTuple

from game import BATTLES

QB, LI, WA, WT = BATTLES  # quatre-bras, ligny, wavre, waterloo: the catalogue's order

ENGAGED, PRESENT, ABSENT, POOL = "engaged", "present", "absent", "pool"
B1, B2, OUR, S1, TERRAIN = "B1", "B2", "our reading", "S1", "terrain"


class Verdict(NamedTuple):
    verdict: str
    basis: str
    sources: tuple[str, ...]
    note: str = ""


class Row(NamedTuple):
    card: int
    unit: str
    battle: str
    verdict: str
    basis: str
    sources: tuple[str, ...]
    note: str


def V(verdict: str, basis: str, *sources: str, note: str = "") -> Verdict:
    return Verdict(verdict, basis, tuple(sources), note)


DEFAULT_ABSENT = V(ABSENT, B1, "§4", note="its formation is not in this battle's order of battle")


def lists(v: Verdict) -> bool:
    """Whether the verdict keeps the battle on the card: engaged (B1 or our reading), in the
    pool by rule, or present and kept by B2 or as our reading. Present by B1 (sources say it
    was not engaged) and absent do not."""
    if v.verdict in (ENGAGED, POOL):
        return True
    return v.verdict == PRESENT and v.basis in (B2, OUR)


def _cards(first: int, last: int) -> tuple[int, ...]:
    return tuple(range(first, last + 1))


# (cards, unit, {battle: Verdict}); unnamed battles are DEFAULT_ABSENT.
GROUPS: list[tuple[tuple[int, ...], str, dict[str, Verdict]]] = [
    # --- French generals (rule: a commander lists the battles his command fought) -------------
    ((1, 2), "Napoléon, Soult (army headquarters)", {
        LI: V(ENGAGED, B1, "§4", "HOU-L", note="directed the battle from Fleurus/Naveau mill"),
        WT: V(ENGAGED, B1, "§4")}),
    ((3,), "Ney (left wing)", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4"),
        LI: V(ABSENT, B1, "HOU", note="at Frasnes/Quatre Bras all day")}),
    ((4,), "Grouchy (right wing; reserve cavalry at Ligny)", {
        LI: V(ENGAGED, B1, "HOU-L", note="his cavalry held Tongrinelle"),
        WA: V(ENGAGED, B1, "WV", "WW"),
        WT: V(ABSENT, B1, "WW", note="at Wavre with Vandamme and Gérard")}),
    ((5,), "d'Erlon (I Corps)", {
        WT: V(ENGAGED, B1, "§4"),
        QB: V(PRESENT, B1, "§4", "QN", note="marched between the two fields; engaged at neither"),
        LI: V(PRESENT, B1, "§4", "QN", note="marched between the two fields; engaged at neither")}),
    ((6,), "Reille (II Corps)", {QB: V(ENGAGED, B1, "§4"), WT: V(ENGAGED, B1, "§4")}),
    ((7, 8), "Vandamme (III Corps), Gérard (IV Corps)", {
        LI: V(ENGAGED, B1, "§4", "HOU-L"), WA: V(ENGAGED, B1, "WV", "WW")}),
    ((9,), "Lobau (VI Corps)", {
        WT: V(ENGAGED, B1, "§4"),
        LI: V(PRESENT, B1, "HOU-L", note="'le corps de Lobau débouche de Fleurus' at the last "
              "attack; not engaged")}),
    ((10,), "Drouot (Imperial Guard)", {LI: V(ENGAGED, B1, "HOU-L"), WT: V(ENGAGED, B1, "§4")}),
    ((11, 12), "Pajol (I Cavalry Corps), Exelmans (II Cavalry Corps)", {
        LI: V(ENGAGED, B1, "§4", "HOU-L"),
        WA: V(ENGAGED, OUR, "WV", note="Pajol fought at Limale; WV lists Exelmans' corps with "
              "Grouchy but no source read says it charged")}),
    ((13,), "Kellermann (III Cavalry Corps)", {
        QB: V(ENGAGED, B1, "§4", "III", note="led Guiton's charge"), WT: V(ENGAGED, B1, "§4")}),
    ((14,), "Milhaud (IV Cavalry Corps)", {LI: V(ENGAGED, B1, "HOU-L"), WT: V(ENGAGED, B1, "§4")}),
    # --- French infantry ----------------------------------------------------------------------
    (_cards(15, 20), "I Corps: Quiot's, Donzelot's, Marcognet's divisions", {
        WT: V(ENGAGED, B1, "§4", note="d'Erlon's attack"),
        QB: V(PRESENT, B1, "§4", "QN", note="d'Erlon's corps marched and counter-marched; "
              "'sans avoir été engagés nulle part' (QN)"),
        LI: V(PRESENT, B1, "§4", "QN", note="as at Quatre Bras: in sight of the field, not "
              "engaged")}),
    ((21, 22), "I Corps: Durutte's division (Pégot, Brue)", {
        WT: V(ENGAGED, B1, "§4", "QN", note="Papelotte and Smohain"),
        QB: V(ABSENT, B1, "§4", note="left near Villers-Perwin when d'Erlon turned back"),
        LI: V(PRESENT, B1, "QN", "HOU-L", note="left by d'Erlon before Wagnelée with "
              "Jacquinot; d'Erlon's corps 'engaged nowhere' on the 16th (QN). Open since 1.2.0: "
              "no source read has it fight, so Ligny stays off the card")}),
    (_cards(23, 28), "II Corps: Bachelu's, Jérôme's, Foy's divisions", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((29, 30), "II Corps: Girard's division", {
        LI: V(ENGAGED, B1, "§4", "LG", "HOU-L", note="took La Haye; Girard killed"),
        QB: V(ABSENT, B1, "§4", "LG", note="detached to Vandamme"),
        WT: V(ABSENT, B1, "§4", note="left at Ligny")}),
    (_cards(31, 36), "III Corps: Lefol's, Habert's, Berthezène's divisions", {
        LI: V(ENGAGED, B1, "§4", "HOU-L", note="St-Amand; Habert before Wagnelée"),
        WA: V(ENGAGED, B1, "WV", "WW", note="the attacks on Wavre town")}),
    (_cards(37, 42), "IV Corps: Pécheux's, Vichery's, Hulot's divisions", {
        LI: V(ENGAGED, B1, "HOU-L", note="Pécheux and Vichery in Ligny, Hulot at Potriaux"),
        WA: V(ENGAGED, B1, "WV", "WW", note="Bierges mill and Limale")}),
    (_cards(43, 46), "VI Corps: Simmer's, Jeanin's divisions", {
        WT: V(ENGAGED, B1, "§4", note="Plancenoit"),
        LI: V(PRESENT, B1, "HOU-L", note="came up from Fleurus at the last attack")}),
    ((47, 48), "VI Corps: Teste's 21st Division", {
        WA: V(ENGAGED, B1, "WV", note="with Pajol at Limale"),
        LI: V(PRESENT, B1, "HOU-L", note="with Lobau's corps, not engaged"),
        WT: V(ABSENT, B1, "WV", note="detached to Grouchy")}),
    ((49, 50, 51), "Old Guard Grenadiers, Old Guard Chasseurs, Middle Guard Grenadiers", {
        LI: V(ENGAGED, B1, "HOU-L", note="the last attack: 1st-4th Grenadiers, 1st Chasseurs"),
        WT: V(ENGAGED, B1, "§4")}),
    ((52,), "Middle Guard Chasseurs (3rd/4th)", {
        LI: V(ENGAGED, OUR, "HOU-L", note="HOU-L names the Grenadiers and the 1st Chasseurs in "
              "the last attack, not the 3rd/4th Chasseurs"),
        WT: V(ENGAGED, B1, "§4", note="the Middle Guard's attack")}),
    ((53, 54), "Young Guard (Duhesme)", {
        LI: V(ENGAGED, OUR, "§4", note="sent to St-Amand [bk]; no source read details it"),
        WT: V(ENGAGED, B1, "§4", "CT-P", note="Plancenoit")}),
    # --- French cavalry -----------------------------------------------------------------------
    ((55,), "Jacquinot's 1st Cavalry Division (I Corps)", {
        WT: V(ENGAGED, B1, "§4"),
        LI: V(PRESENT, B1, "QN", note="with Durutte before Wagnelée, not engaged")}),
    ((56,), "Piré's 2nd Cavalry Division (II Corps)", {
        QB: V(ENGAGED, B1, "§4", "HOU"),
        WT: V(ENGAGED, OUR, "§4", note="on the French left; no source read details its part")}),
    ((57,), "Domon's 3rd Cavalry Division (III Corps)", {
        LI: V(ENGAGED, B1, "HOU-L", note="before Wagnelée beside Habert"),
        WT: V(ENGAGED, B1, "§4", note="detached with Lobau against Bülow"),
        WA: V(ABSENT, B1, "§4", note="with Napoleon on the 18th")}),
    ((58,), "Maurin's 7th Cavalry Division (IV Corps)", {
        LI: V(ENGAGED, B1, "§4"), WA: V(ENGAGED, B1, "WV")}),
    ((59,), "P. Soult's 4th Cavalry Division (Pajol)", {
        LI: V(ENGAGED, B1, "§4"), WA: V(ENGAGED, B1, "WV", note="Limale")}),
    ((60,), "Subervie's 5th Cavalry Division (Pajol)", {
        LI: V(ENGAGED, OUR, "§4", note="with Pajol on the right [bk]"),
        WT: V(ENGAGED, B1, "§4", note="detached with Domon against Bülow"),
        WA: V(ABSENT, B1, "§4")}),
    ((61, 62), "Exelmans' dragoons: Strolz's and Chastel's divisions", {
        LI: V(ENGAGED, B1, "HOU-L", note="Grouchy's cavalry at Tongrinelle"),
        WA: V(ENGAGED, OUR, "WV", note="with Grouchy before Wavre (WV); no source read says "
              "they charged: kept")}),
    ((63,), "L'Héritier's 11th Cavalry Division (Kellermann)", {
        QB: V(ENGAGED, B1, "III", "§4", note="Guiton's cuirassier brigade charged"),
        WT: V(ENGAGED, B1, "§4")}),
    ((64,), "Roussel d'Hurbal's 12th Cavalry Division (Kellermann)", {
        QB: V(PRESENT, B2, "§3", note="held back; kept for the sample's 4 French cavalry (J2)"),
        WT: V(ENGAGED, B1, "§4")}),
    ((65, 66), "Milhaud's cuirassiers: Wathier's and Delort's divisions", {
        LI: V(ENGAGED, B1, "HOU-L", note="'les 3 000 cuirassiers de Milhaud'"),
        WT: V(ENGAGED, B1, "§4")}),
    ((67,), "Guard light cavalry (Lefebvre-Desnouettes)", {
        QB: V(PRESENT, B2, "§3", note="at Frasnes; kept for the sample's 4 French cavalry"),
        LI: V(ABSENT, B1, "§4", note="with Ney, not at Ligny"),
        WT: V(ENGAGED, B1, "§4")}),
    ((68,), "Guard heavy cavalry (Guyot)", {
        LI: V(ENGAGED, B1, "HOU-L", note="'la cavalerie de la garde' in the last attack"),
        WT: V(ENGAGED, B1, "§4")}),
    # --- French artillery ---------------------------------------------------------------------
    ((69, 70), "I Corps artillery, Grande Batterie", {
        WT: V(ENGAGED, B1, "§4", "CT"),
        QB: V(PRESENT, B1, "QN", note="with d'Erlon's marching corps"),
        LI: V(PRESENT, B1, "QN", note="with d'Erlon's marching corps")}),
    ((71, 72, 73), "II Corps artillery (foot, 12-pdr reserve, Piré's horse)", {
        QB: V(ENGAGED, B1, "§3", "CT", note="the sample game's 3B foot artillery (J2)"),
        WT: V(ENGAGED, B1, "CT")}),
    ((74, 75), "III and IV Corps foot artillery", {
        LI: V(ENGAGED, OUR, "§4", note="with their corps; no battery-level source read"),
        WA: V(ENGAGED, B1, "WV", note="38 guns each with Grouchy")}),
    ((76,), "VI Corps foot artillery", {
        WT: V(ENGAGED, B1, "RF", "WV"),
        LI: V(PRESENT, B1, "HOU-L", note="with Lobau's corps, not engaged")}),
    ((77, 78, 79), "Guard artillery (foot, 12-pdr, horse)", {
        LI: V(ENGAGED, B1, "HOU-L", note="'les batteries de réserve ouvrent le feu'"),
        WT: V(ENGAGED, B1, "§4")}),
    ((80,), "I Cavalry Corps horse artillery (Pajol)", {
        LI: V(ENGAGED, OUR, "§4"), WA: V(ENGAGED, B1, "WV", note="14 guns with Soult and Teste")}),
    ((81,), "II Cavalry Corps horse artillery (Exelmans)", {
        LI: V(ENGAGED, OUR, "§4"), WA: V(ENGAGED, OUR, "WV", note="12 guns listed; kept")}),
    ((82,), "III Cavalry Corps horse artillery (Kellermann)", {
        QB: V(ENGAGED, OUR, "§4", note="no source read names its batteries at Quatre Bras"),
        WT: V(ENGAGED, B1, "§4")}),
    ((83,), "IV Cavalry Corps horse artillery (Milhaud)", {
        LI: V(ENGAGED, OUR, "§4"), WT: V(ENGAGED, B1, "§4")}),
    # --- British generals ---------------------------------------------------------------------
    ((111, 113), "Wellington, Prince of Orange", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4"),
        LI: V(ABSENT, B1, "HOU", note="Wellington met Blücher at Brye before the battle only")}),
    ((112,), "Uxbridge (cavalry)", {
        QB: V(PRESENT, B2, "§4", "HOU", note="the cavalry arrived in the evening; kept for the "
              "sample's 8 Allied generals (J2)"),
        WT: V(ENGAGED, B1, "§4")}),
    ((114, 121), "Hill (II Corps), Clinton (2nd Division)", {WT: V(ENGAGED, B1, "§4")}),
    ((115, 122), "Prince Frederick, Colville (at Hal)", {
        WT: V(ABSENT, B1, "§4", "CT-B", note="at Hal on the 18th (16.0)")}),
    ((116, 117, 118, 123), "Cooke, Alten, Perponcher, Picton", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((119,), "Chassé (3rd NL Division)", {
        WT: V(ENGAGED, B1, "§4"), QB: V(ABSENT, B1, "§4", note="at Nivelles")}),
    ((120,), "Collaert (NL cavalry)", {
        WT: V(ENGAGED, B1, "§4"),
        QB: V(PRESENT, B1, "§4", note="only van Merlen's brigade of his division fought (§4: NL "
              "cavalry Wt); the card keeps Waterloo only, as in 1.0.0")}),
    ((124,), "Lambert (6th Division)", {WT: V(ENGAGED, B1, "§4")}),
    ((125,), "Duke of Brunswick", {
        QB: V(ENGAGED, B1, "§4", note="killed at Quatre Bras"),
        WT: V(ABSENT, B1, "§4", note="killed on the 16th")}),
    ((126,), "Kruse (Nassau)", {WT: V(ENGAGED, B1, "§4")}),
    # --- British infantry ---------------------------------------------------------------------
    ((127, 128), "1st (Guards) Division: Maitland, Byng", {
        QB: V(ENGAGED, B1, "§4", "HOU", note="cleared the Bossu wood in the evening"),
        WT: V(ENGAGED, B1, "§4")}),
    ((129, 131), "3rd Division: C. Halkett, Kielmansegge", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((130,), "3rd Division: Ompteda's KGL brigade", {
        QB: V(ABSENT, B1, "HOU", "SCH", note="set out to rejoin only on the 17th, with Clinton, "
              "Colville and the reserve artillery ('le 17, dans la matinée, la brigade Ompteda "
              "... se mirent en marche pour rejoindre', HOU); the KGL's part at Quatre Bras was "
              "two batteries only (SCH). Removed in 1.3.0"),
        WT: V(ENGAGED, B1, "§4", note="La Haye Sainte")}),
    ((132, 133), "2nd NL Division: Bijlandt, Saxe-Weimar", {
        QB: V(ENGAGED, B1, "§4", "SW"), WT: V(ENGAGED, B1, "§4", "LWH")}),
    ((134, 135), "3rd NL Division: Detmers, d'Aubremé", {
        WT: V(ENGAGED, OUR, "§4", "CT-B", note="Detmers charged the Guard [bk]; d'Aubremé "
              "came up in the second line [bk]"),
        QB: V(ABSENT, B1, "§4", "CT-B", note="at Nivelles on the 16th")}),
    ((136, 137, 138), "2nd Division: Adam, du Plat, H. Halkett", {WT: V(ENGAGED, B1, "§4")}),
    ((139,), "4th Division: Mitchell", {WT: V(ENGAGED, B1, "§4")}),
    ((140, 141, 142), "Johnstone, Lyon, Hauw (at Hal)", {
        WT: V(ABSENT, B1, "§4", "CT-B", note="at Hal on the 18th (16.0)")}),
    ((143, 144, 145), "5th Division: Kempt, Pack, Vincke", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((146,), "6th Division: Lambert's brigade", {
        WT: V(ENGAGED, B1, "§4"), QB: V(ABSENT, B1, "§4", note="arrived from Ghent on the 18th")}),
    ((147,), "6th Division: Best's Hanoverians", {
        QB: V(ENGAGED, B1, "§4", note="with Picton"), WT: V(ENGAGED, B1, "§4", "LWH")}),
    ((148, 149, 150), "Brunswick infantry", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((151,), "Nassau contingent (1st Nassau)", {WT: V(ENGAGED, B1, "§4")}),
    # --- British cavalry ----------------------------------------------------------------------
    ((152, 153, 154, 155, 156, 157, 158), "Uxbridge's British and KGL brigades", {
        WT: V(ENGAGED, B1, "§4", "UB"),
        QB: V(PRESENT, B1, "HOU", note="arrived in the evening and night of the 16th")}),
    ((159,), "Cumberland Hussars (Estorff)", {
        WT: V(ENGAGED, OUR, "§4", note="stood under fire in the reserve and left the field [bk]; "
              "kept as engaged, our reading"),
        QB: V(ABSENT, B1, "§4")}),
    ((160, 161), "NL cavalry: Trip, Ghigny", {
        WT: V(ENGAGED, B1, "§4"),
        QB: V(PRESENT, B1, "§4", note="reached the field late [bk]; not engaged")}),
    ((162,), "NL cavalry: van Merlen", {
        QB: V(ENGAGED, B1, "§4", "HOU"), WT: V(ENGAGED, B1, "§4")}),
    ((163,), "Brunswick cavalry", {QB: V(ENGAGED, B1, "§4"), WT: V(ENGAGED, B1, "§4")}),
    # --- British artillery --------------------------------------------------------------------
    ((164,), "1st Division artillery (Sandham & Kuhlmann)", {
        WT: V(ENGAGED, B1, "CT-A"),
        QB: V(ENGAGED, B1, "SCH", "NO", note="Kuhlmann's KGL horse battery came up with the "
              "Guards about 4 p.m. and fired until dark (NO, after Siborne); the KGL's part at "
              "Quatre Bras was 'zweier Legionsbatterien' (SCH). Added in 1.3.0 (B1: one battery "
              "of the pair)")}),
    ((165,), "3rd Division artillery (Lloyd & Cleeves)", {
        QB: V(ENGAGED, OUR, "§4", note="with Alten's two brigades [bk]"),
        WT: V(ENGAGED, B1, "CT-A")}),
    ((166,), "5th Division artillery (Rogers & Braun)", {
        QB: V(ENGAGED, B1, "§4", note="came up with Picton's division"),
        WT: V(ENGAGED, B1, "CT-A")}),
    ((167,), "6th Division artillery (Unett & Rettberg)", {
        WT: V(ENGAGED, B1, "CT-A", "LWH", note="Rettberg's battery relieved by Zieten's"),
        QB: V(PRESENT, B1, "§4", note="Rettberg's battery may have come with Best [bk]; open")}),
    ((168,), "2nd Division artillery (Bolton & Sympher)", {WT: V(ENGAGED, B1, "CT-A")}),
    ((169, 170), "Netherlands artillery (Stevenart & Lux; Bijleveld & Petter)", {
        QB: V(ENGAGED, B1, "§4", "NLW-B", note="Stevenart's and Bijleveld's batteries"),
        WT: V(ENGAGED, B1, "§4", "LWH", note="Bijleveld's guns at Papelotte")}),
    ((171,), "Brunswick artillery", {QB: V(ENGAGED, B1, "§4"), WT: V(ENGAGED, B1, "CT-A")}),
    ((172, 173, 174), "Royal Horse Artillery troops", {
        WT: V(ENGAGED, B1, "CT-A"),
        QB: V(PRESENT, B1, "HOU", note="came up with the cavalry in the evening")}),
    # --- Prussian generals --------------------------------------------------------------------
    ((201, 202, 203, 204), "Blücher, Gneisenau, Zieten, Pirch I", {
        LI: V(ENGAGED, B1, "§4", "HOU-L"), WT: V(ENGAGED, B1, "§4", "CT-P")}),
    ((205,), "Thielmann (III Corps)", {
        LI: V(ENGAGED, B1, "§4", "HOU-L"), WA: V(ENGAGED, B1, "CW", "DP")}),
    ((206,), "Bülow (IV Corps)", {
        WT: V(ENGAGED, B1, "§4", "LWH"),
        LI: V(ABSENT, B1, "§4", note="IV Corps had not come up from Liège")}),
    # --- Prussian infantry --------------------------------------------------------------------
    ((207, 208, 209), "I Corps, 1st Brigade (Steinmetz)", {
        LI: V(ENGAGED, B1, "§4", "HOU-L", note="St-Amand"),
        WT: V(ENGAGED, B1, "CT-P", "LWH", note="'four battalion columns, part of general "
              "Steinmetz's brigade' (CT-P) at Smohain and Papelotte")}),
    (_cards(210, 217), "I Corps, 2nd-4th Brigades (Pirch II, Jagow, Henckel)", {
        LI: V(ENGAGED, B1, "HOU-L", note="Pirch II at La Haye, Jagow and Henckel in Ligny"),
        WT: V(PRESENT, OUR, "CT-P", "LWH", "QN", note="open since 1.2.0, still unsettled: "
              "CT-P and LWH name only Steinmetz's brigade, Röder's cavalry and two batteries of "
              "I Corps in action, and the corps' infantry 'had not yet come up' when its "
              "cavalry arrived (LWH, the corps' Tagebuch); QN has 'les 13,000 hommes de "
              "Ziethen' break in, more than one brigade. Sources disagree: kept")}),
    ((218, 219, 220), "II Corps, 5th Brigade (Tippelskirch)", {
        LI: V(ENGAGED, B1, "HOU-L", note="before Wagnelée"),
        WT: V(ENGAGED, B1, "VU-II", "CT-P", note="Plancenoit")}),
    ((221, 222, 223), "II Corps, 6th Brigade (Krafft)", {
        LI: V(ENGAGED, B1, "HOU-L", note="relieved Henckel in Ligny"),
        WT: V(PRESENT, OUR, "VU-II", "CT-P", note="in reserve behind the attack on Plancenoit "
              "(CT-P); kept as in 1.2.0")}),
    ((224, 225, 226), "II Corps, 7th Brigade (Brause)", {
        LI: V(ENGAGED, OUR, "§4", note="St-Amand [bk]"),
        WA: V(PRESENT, B1, "VU-II", note="deployed at Wavre on the 18th before the French "
              "attack, then marched off"),
        WT: V(ABSENT, B1, "VU-II", note="detached to Maransart (1.2.0)")}),
    ((227, 228, 229), "II Corps, 8th Brigade (Bose; Langen at Ligny)", {
        LI: V(ENGAGED, B1, "HOU-L", note="'les bataillons de Langen'"),
        WA: V(PRESENT, B1, "VU-II", note="held Wavre until the corps had passed, then marched"),
        WT: V(PRESENT, OUR, "VU-II", note="followed the 7th 'with difficulty'; kept as in 1.2.0")}),
    ((230,), "III Corps, 9th Brigade: 8th (Leib) Regiment", {
        LI: V(ENGAGED, OUR, "§4"),
        WA: V(PRESENT, B1, "CW", "DP", note="marched off with Borcke (1.2.0)")}),
    ((231, 232), "III Corps, 9th Brigade: 30th, 1st Kurmark Landwehr", {
        LI: V(ENGAGED, OUR, "§4"),
        WA: V(ENGAGED, B1, "DP", "CW", note="their 3rd battalions held the Wavre defile")}),
    (_cards(233, 239), "III Corps, 10th-12th Brigades", {
        LI: V(ENGAGED, B1, "HOU-L", note="Thielmann's front at Potriaux and Tongrinne"),
        WA: V(ENGAGED, B1, "DP", "CW")}),
    (_cards(240, 251), "IV Corps, 13th-16th Brigades", {
        WT: V(ENGAGED, B1, "CT-P", "LWH", note="Hacke, Ryssel, Losthin, Hiller before "
              "Plancenoit"),
        LI: V(ABSENT, B1, "§4")}),
    # --- Prussian cavalry ---------------------------------------------------------------------
    ((252, 253), "I Corps cavalry (Röder): Treskow, Lützow", {
        LI: V(ENGAGED, B1, "§4", note="the charges before Brye [bk]"),
        WT: V(ENGAGED, B1, "CT-P", "LWH", note="'two regiments of cavalry, accompanied by "
              "artillery' first on the left (LWH); which brigade they were is our reading")}),
    ((254, 255, 256), "II Corps cavalry (Jürgass)", {
        LI: V(ENGAGED, OUR, "HOU-L", note="HOU-L: 'ne prit pour ainsi dire point part à "
              "l'action' at Wagnelée; Thümen fell at Ligny [bk]: kept"),
        WT: V(ENGAGED, B1, "VU-II", "CT-P")}),
    ((257, 258), "III Corps cavalry (Hobe)", {
        LI: V(ENGAGED, OUR, "§4"), WA: V(ENGAGED, B1, "CW")}),
    ((259, 260, 261), "IV Corps cavalry (Prince William)", {
        WT: V(ENGAGED, B1, "CT-P"), LI: V(ABSENT, B1, "§4")}),
    # --- Prussian artillery -------------------------------------------------------------------
    ((262, 263), "I Corps foot and 12-pdr batteries", {
        LI: V(ENGAGED, OUR, "§4"),
        WT: V(PRESENT, OUR, "LWH", note="LWH: two I Corps batteries came up with the cavalry; "
              "which ones is not said")}),
    ((264,), "I Corps horse artillery", {
        LI: V(ENGAGED, OUR, "§4"),
        WT: V(ENGAGED, B1, "CT-P", "LWH", note="Röder's battery 'opened fire' (CT-P)")}),
    ((265, 266, 267), "II Corps artillery", {
        LI: V(ENGAGED, OUR, "§4"), WT: V(PRESENT, OUR, "VU-II", note="not named (1.2.0)")}),
    ((268, 269), "III Corps artillery", {
        LI: V(ENGAGED, OUR, "§4"), WA: V(ENGAGED, B1, "CW", note="35 guns at Wavre")}),
    ((270, 271, 272), "IV Corps artillery", {
        WT: V(ENGAGED, B1, "LWH", note="'the brigade and reserve artillery quickly followed' "
              "(Bülow, in LWH)"),
        LI: V(ABSENT, B1, "§4")}),
]

# Terrain: exactly its battle (README "Terrain"; the validator's rule).
_TERRAIN_BATTLE = {
    (84, 85, 86): QB, (87, 88): LI, (89, 90): WA, (91, 92): WT,
    (175, 176, 177): QB, (178, 179, 180, 181, 182): WT,
    (273, 274, 275, 276, 277): LI, (278, 279, 280): WA, (281, 282): WT,
}
for _cards_t, _battle in _TERRAIN_BATTLE.items():
    GROUPS.append((_cards_t, f"terrain of {_battle}", {
        b: V(POOL, TERRAIN, "README", note="terrain: exactly its battle") if b == _battle
        else V(ABSENT, TERRAIN, "README", note="terrain of another battle") for b in BATTLES}))

# Specials: rule S1 (README "Historical pools"): the battles whose pool each belongs to.
# The choice per special is the README's judgement from its name; the count per pool is
# floor(n / 4 + 1/2) (tests/test_catalogue_data.py::test_rule_s1_specials_per_pool).
SPECIALS: dict[int, tuple[str, ...]] = {
    93: (LI, WT), 94: (LI,), 95: (LI, WT), 96: (QB, LI, WA, WT), 97: (QB, WT),
    98: (LI, WT), 99: (QB, WA, WT), 100: (WA, WT), 101: (LI, WT), 102: (WA, WT),
    103: (LI,), 104: (QB,), 105: (LI, WA), 106: (LI, WA, WT), 107: (LI, WT), 108: (LI, WT),
    109: (LI, WA, WT), 110: (QB, WT),
    183: (QB, WT), 184: (QB, WT), 185: (WT,), 186: (WT,), 187: (WT,), 188: (WT,), 189: (WT,),
    190: (WT,), 191: (QB, WT), 192: (QB, WT), 193: (WT,), 194: (WT,), 195: (QB,), 196: (WT,),
    197: (QB,), 198: (QB, WT), 199: (WT,), 200: (QB, WT),
    283: (LI, WT), 284: (WT,), 285: (LI, WA, WT), 286: (LI, WA, WT), 287: (LI, WT),
    288: (LI, WA, WT), 289: (LI, WT), 290: (LI,), 291: (LI, WT), 292: (LI, WA), 293: (LI,),
    294: (LI, WT), 295: (WT,), 296: (LI, WT), 297: (LI,), 298: (LI, WT), 299: (LI, WT),
    300: (WT,),
}
for _number, _in_pool in SPECIALS.items():
    GROUPS.append(((_number,), "special", {
        b: V(POOL, S1, "README", note="rule S1") if b in _in_pool
        else V(ABSENT, S1, "README", note="rule S1: not in this pool") for b in BATTLES}))


def rows() -> list[Row]:
    """One row per card and battle, in card order."""
    out = []
    for cards, unit, verdicts in GROUPS:
        for card in cards:
            for battle in BATTLES:
                v = verdicts.get(battle, DEFAULT_ABSENT)
                out.append(Row(card, unit, battle, v.verdict, v.basis, v.sources, v.note))
    return sorted(out, key=lambda r: (r.card, BATTLES.index(r.battle)))


def expected_battles() -> dict[int, list[str]]:
    """Each card's battles as the table says they should be, in the catalogue's order."""
    out: dict[int, list[str]] = {}
    for row in rows():
        keep = lists(Verdict(row.verdict, row.basis, row.sources, row.note))
        out.setdefault(row.card, [])
        if keep:
            out[row.card].append(row.battle)
    return out


def disagreements(data: dict) -> list[tuple[int, list[str], list[str]]]:
    """Cards whose ``battles`` differ from the table: (number, catalogue, table)."""
    want = expected_battles()
    return [(c["number"], c["battles"], want.get(c["number"], []))
            for c in data["cards"] if c["battles"] != want.get(c["number"], [])]
