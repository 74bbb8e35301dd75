//! Warnings about definitions that are valid but probably not what the author meant: pieces
//! that never reach the board or never move, promotion zones out of reach, zones copied for a
//! side that never reads them, options that change nothing. They run on a valid variant and
//! its compiled tables.

use super::{Ctx, Items, Space};
use crate::diagnostics::DefinitionError;
use crate::model::{Mark, PieceKind, Side, SquareSet, Tables, Variant};
use crate::syntax::ast;

impl Ctx {
    pub(super) fn lint(&mut self, variant: &Variant, items: &Items<'_>) {
        let present = present_kinds(variant);
        for (k, decl) in items.pieces.iter().enumerate() {
            if !present.iter().any(|p| p[k]) && !variant.pieces()[k].only_from_fen {
                self.report(DefinitionError::PieceNeverOnBoard {
                    name: decl.name.node.clone(),
                    at: decl.name.span.into(),
                });
            }
        }
        self.zones_read_by_one_side(variant, &present);
        self.glyphs_like_letters(variant, items);
        let Ok(tables) = Tables::compile(variant, &[]) else {
            return;
        };
        for (k, decl) in items.pieces.iter().enumerate() {
            let kind = PieceKind::nth(k);
            // A piece without a single `move` clause that may be dropped where stuck is meant
            // to stand still (Othello's discs).
            let immobile = !decl
                .clauses
                .iter()
                .any(|c| matches!(c, ast::PieceClause::Move(_)))
                && variant.pieces()[k].drops.even_where_stuck;
            if !can_move(&tables, kind) && !immobile {
                self.report(DefinitionError::PieceWithoutMoves {
                    name: decl.name.node.clone(),
                    at: decl.name.span.into(),
                });
                continue;
            }
            self.promotions_in_reach(&tables, kind, decl, &present);
        }
        self.options_without_effect(variant, &tables);
        self.placed_outside_confinement(&tables, items);
    }

    /// Zone glyphs that a text board would confuse with a piece: `+` where promoted letters
    /// start with it, `~` where some end with it.
    fn glyphs_like_letters(&mut self, variant: &Variant, items: &Items<'_>) {
        for decl in &items.zones {
            let Some(drawn) = &decl.drawn else { continue };
            let Some(glyph) = drawn.node.chars().next() else {
                continue;
            };
            let clash = variant.pieces().iter().find(|p| {
                (glyph == '+' && p.letter.mark() == Mark::Plus)
                    || (glyph == '~' && p.letter.mark() == Mark::Tilde)
            });
            if let Some(p) = clash {
                self.report(DefinitionError::GlyphLikeLetter {
                    zone: decl.name.node.clone(),
                    glyph,
                    letter: p.letter.to_string(),
                    at: drawn.span.into(),
                });
            }
        }
    }

    /// Pieces the start position puts outside the zone their moves must end in: they can
    /// move only where a move happens to end inside, often nowhere.
    fn placed_outside_confinement(&mut self, tables: &Tables, items: &Items<'_>) {
        let v = tables.variant();
        let g = tables.geometry();
        for (k, decl) in items.pieces.iter().enumerate() {
            let clauses: Vec<&ast::ConfineClause> = decl
                .clauses
                .iter()
                .filter_map(|c| match c {
                    ast::PieceClause::Confine(c) => Some(c),
                    _ => None,
                })
                .collect();
            let model = &v.pieces()[k].confinements;
            if clauses.len() != model.len() {
                continue;
            }
            for (clause, c) in clauses.iter().zip(model) {
                if !c.inside || !tables.guards_hold(&c.options) {
                    continue;
                }
                let outside: Vec<String> = tables
                    .setup()
                    .iter()
                    .filter(|p| {
                        p.piece.index() == k && !tables.zone(c.zone, p.side).contains(p.square)
                    })
                    .map(|p| g.name(p.square).to_string())
                    .collect();
                if !outside.is_empty() {
                    self.report(DefinitionError::PlacedOutsideConfinement {
                        name: decl.name.node.clone(),
                        zone: clause.zone.node.clone(),
                        squares: outside.join(", "),
                        at: clause.span.into(),
                    });
                }
            }
        }
    }

    /// Promotion zones a piece can never walk into from where it starts.
    fn promotions_in_reach(
        &mut self,
        tables: &Tables,
        kind: PieceKind,
        decl: &ast::PieceDecl,
        present: &[Vec<bool>],
    ) {
        let v = tables.variant();
        // A piece that may be dropped can start anywhere its drops allow: no walk needed.
        if v.rules().drops || !v.rules().drops_options.is_empty() {
            return;
        }
        for promotion in &v.piece(kind).promotions {
            let mut walked_any = false;
            let mut reached = false;
            for (s, kinds) in present.iter().enumerate() {
                let side = Side::nth(s);
                let starts: Vec<_> = v
                    .all_placements()
                    .filter(|p| p.side == side && p.piece == kind)
                    .map(|p| p.square)
                    .collect();
                if !kinds[kind.index()] {
                    continue;
                }
                // A piece that also appears by promotion may start anywhere.
                if starts.is_empty() || appears_later(v, kind, s, present) {
                    reached = true;
                    break;
                }
                walked_any = true;
                let walked = walk(tables, kind, side, &starts);
                if tables
                    .zone(promotion.zone, side)
                    .iter()
                    .any(|sq| walked.contains(sq))
                {
                    reached = true;
                    break;
                }
            }
            if reached || !walked_any {
                continue;
            }
            let zone_name = &v.zones[promotion.zone.index()].name;
            let at = decl
                .clauses
                .iter()
                .find_map(|c| match c {
                    ast::PieceClause::Promote(p) if &p.zone.node == zone_name => Some(p.zone.span),
                    _ => None,
                })
                .unwrap_or(decl.name.span);
            self.report(DefinitionError::PromotionOutOfReach {
                piece: decl.name.node.clone(),
                zone: zone_name.clone(),
                at: at.into(),
            });
        }
    }

    /// Zones with a copy per side where only one side's pieces ever read them.
    fn zones_read_by_one_side(&mut self, variant: &Variant, present: &[Vec<bool>]) {
        let sides = variant.sides().len();
        let rules_text = format!("{:?}", variant.rules());
        for (z, zone) in variant.zones.iter().enumerate() {
            if zone.squares.windows(2).all(|w| w[0] == w[1]) {
                continue;
            }
            let id = format!("ZoneId({z})");
            if mentions(&rules_text, &id) {
                continue;
            }
            let readers: Vec<usize> = (0..variant.pieces().len())
                .filter(|&k| mentions(&format!("{:?}", variant.pieces()[k]), &id))
                .collect();
            // Zones read only by other zones, or by nobody, are another warning's business.
            if readers.is_empty() {
                continue;
            }
            let users: Vec<usize> = (0..sides)
                .filter(|&s| readers.iter().any(|&k| present[s][k]))
                .collect();
            if users.len() == 1 {
                let (name, span) = self.names[Space::Zone].decls[z].clone();
                self.report(DefinitionError::ZoneForOneSide {
                    name,
                    side: variant.sides()[users[0]].name.clone(),
                    at: span.into(),
                });
            }
        }
    }

    /// Options whose flip compiles to the same game, whatever the other options say (an
    /// option may matter only together with another: `shared-border` with `teams`). With
    /// many options only the first few others are varied, so that the lint stays cheap.
    fn options_without_effect(&mut self, variant: &Variant, tables: &Tables) {
        const VARIED: usize = 4;
        let used: Vec<usize> = (0..variant.options().len())
            .filter(|&i| self.names[Space::Option].used[i])
            .collect();
        for &i in &used {
            let option = &variant.options()[i];
            let others: Vec<&str> = used
                .iter()
                .filter(|&&o| o != i)
                .take(VARIED)
                .map(|&o| variant.options()[o].name.as_str())
                .collect();
            let same_everywhere = (0..1usize << others.len()).all(|combo| {
                let mut settings: Vec<(String, bool)> = others
                    .iter()
                    .enumerate()
                    .map(|(b, name)| ((*name).to_string(), combo >> b & 1 != 0))
                    .collect();
                let base = if combo == 0 && others.is_empty() {
                    None
                } else {
                    settings.push((option.name.clone(), option.default));
                    let t = Tables::compile(variant, &settings);
                    settings.pop();
                    t.ok()
                };
                settings.push((option.name.clone(), !option.default));
                let flipped = Tables::compile(variant, &settings);
                match (&base, flipped) {
                    (_, Err(_)) => false,
                    (None, Ok(f)) => f.same_game(tables),
                    (Some(b), Ok(f)) => f.same_game(b),
                }
            });
            if same_everywhere {
                let (name, span) = self.names[Space::Option].decls[i].clone();
                self.report(DefinitionError::OptionWithoutEffect {
                    name,
                    at: span.into(),
                });
            }
        }
    }
}

/// Whether `kind` of side `s` can come onto the board other than from the setup: promoted
/// to from a piece that side has.
fn appears_later(v: &Variant, kind: PieceKind, s: usize, present: &[Vec<bool>]) -> bool {
    v.pieces()
        .iter()
        .enumerate()
        .any(|(k, def)| present[s][k] && def.promotions.iter().any(|p| p.choices.contains(&kind)))
}

/// Whether `text`, the debug form of a model value, names the zone `id` (`ZoneId(3)`, not
/// `ZoneId(31)`).
fn mentions(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(i, _)| {
        !text[i + id.len()..].starts_with(|c: char| c.is_ascii_digit())
            && !text[..i].ends_with(|c: char| c.is_ascii_alphanumeric())
    })
}

/// Per side, the kinds that can stand on the board: placed by a setup, promoted to from
/// such a kind, or dropped after a capture (any side's capturable kind, as it demotes).
fn present_kinds(variant: &Variant) -> Vec<Vec<bool>> {
    let kinds = variant.pieces().len();
    let sides = variant.sides().len();
    let mut present = vec![vec![false; kinds]; sides];
    for p in variant.all_placements() {
        present[p.side.index()][p.piece.index()] = true;
    }
    let drops = variant.rules().drops || !variant.rules().drops_options.is_empty();
    // Pieces in hand at the start reach the board by a drop or a gating.
    if drops || variant.rules().gating.is_some() {
        for &(side, kind) in variant.all_hand_pieces() {
            present[side.index()][kind.index()] = true;
        }
    }
    loop {
        let mut changed = false;
        for s in 0..sides {
            for k in 0..kinds {
                let on_board = (0..sides).any(|t| present[t][k]);
                let def = &variant.pieces()[k];
                let mut add = |set: &mut Vec<Vec<bool>>, side: usize, kind: PieceKind| {
                    if !set[side][kind.index()] {
                        set[side][kind.index()] = true;
                        changed = true;
                    }
                };
                if present[s][k] {
                    for promotion in &def.promotions {
                        for &c in &promotion.choices {
                            add(&mut present, s, c);
                        }
                    }
                }
                // A captured piece goes to the capturer's hand, as its demoted kind.
                if drops && on_board {
                    let demoted = def.demotes_to.unwrap_or(PieceKind::nth(k));
                    for side in 0..sides {
                        add(&mut present, side, demoted);
                    }
                }
            }
        }
        if !changed {
            return present;
        }
    }
}

/// Whether `kind` has a move from some square, for some side.
fn can_move(tables: &Tables, kind: PieceKind) -> bool {
    let v = tables.variant();
    if v.piece(kind).borrows || !v.piece(kind).teleports.is_empty() {
        return true;
    }
    // A piece that castles moves by castling.
    if v.rules()
        .castlings
        .iter()
        .any(|c| c.king == kind || c.partner == kind)
    {
        return true;
    }
    (0..v.sides().len()).any(|s| {
        let side = Side::nth(s);
        tables
            .geometry()
            .squares()
            .any(|sq| !tables.reach(kind, side, sq).is_empty())
    })
}

/// The squares `kind` of `side` can walk to from `starts` on an otherwise empty board.
fn walk(
    tables: &Tables,
    kind: PieceKind,
    side: Side,
    starts: &[crate::model::Square],
) -> SquareSet {
    let mut seen = SquareSet::EMPTY;
    let mut stack = starts.to_vec();
    for &sq in starts {
        seen.insert(sq);
    }
    while let Some(sq) = stack.pop() {
        for t in tables.reach(kind, side, sq) {
            if !seen.contains(t.square) {
                seen.insert(t.square);
                stack.push(t.square);
            }
        }
    }
    seen
}
