//! Moves written in Betza notation behave exactly like the same moves written as legs: Chess
//! and Xiangqi with Betza pieces reach the published perft counts.

use crate::common;
use rulebook::engine::{perft, Position};

fn fixture(name: &str) -> Position {
    common::start_of(&format!("tests/fixtures/valid/pieces/{name}"))
}

#[test]
fn chess_in_betza_counts_like_chess() {
    assert_eq!(perft(&mut fixture("betza_chess.variant"), 4), 197_281);
    let kiwipete = fixture("betza_chess.variant")
        .with_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        .unwrap();
    assert_eq!(perft(&mut kiwipete.clone(), 3), 97_862);
}

#[test]
fn xiangqi_in_betza_counts_like_xiangqi() {
    assert_eq!(perft(&mut fixture("betza_xiangqi.variant"), 3), 79_666);
}

/// A 9x9 game whose piece `X` moves as `betza`; kings and blocking pawns besides.
fn with_piece(betza: &str) -> Position {
    with_moves(&format!("  move betza \"{betza}\""))
}

/// The same game, `X` moving by the clauses `moves`.
fn with_moves(moves: &str) -> Position {
    let text = format!(
        r#"
variant "Writer"
board 9 x 9
sides white north, black south
piece King K royal
  move step any
piece Pawn P
  move step forward, move-only
piece Piece X
{moves}
rules
  checkmate
setup
  k........
  .........
  .........
  .........
  ....X....
  .........
  .........
  .........
  K........
"#
    );
    let variant =
        rulebook::load("writer.variant", &text).unwrap_or_else(|e| panic!("{moves}: {e:?}"));
    Position::new(rulebook::model::Tables::compile(&variant, &[]).unwrap())
}

/// What `X` on e5 may do: on an empty board, hemmed in by friends, and among enemies.
fn reach(pos: &Position) -> Vec<Vec<String>> {
    [
        "k8/9/9/9/4X4/9/9/9/K8 w - - 0 1",
        "k8/9/9/3PPP3/2PPXPP2/3PPP3/9/9/K8 w - - 0 1",
        "k8/4p4/9/3ppp3/1p1pXp1p1/3ppp3/9/4p4/K8 w - - 0 1",
        "k8/9/2p3p2/9/1p2X2p1/9/2p1p1p2/9/K8 w - - 0 1",
    ]
    .iter()
    .map(|fen| {
        let p = pos.with_fen(fen).unwrap();
        common::targets(&p, "e5")
    })
    .collect()
}

fn written(pos: &Position) -> rulebook::model::betza::Written {
    let t = pos.tables();
    let kind = t.variant().piece_by_name("Piece").unwrap();
    rulebook::model::betza::write(t, kind)
}

#[test]
fn written_betza_reads_back_to_the_same_moves() {
    for (betza, expected) in [
        ("K", "K"),
        ("WF", "K"),
        ("Q", "Q"),
        ("RB", "Q"),
        ("mRcpR", "mRcpR"),
        ("fmWfcF", "mfWcfF"),
        ("nN", "nN"),
        ("nA", "nA"),
        ("fnA", "nfA"),
        ("nD", "nD"),
        ("nH", "nH"),
        ("nG", "nG"),
        ("fnH", "nfH"),
        ("nZ", "nZ"),
        ("ffN", "ffN"),
        ("fN", "fN"),
        ("bbNsN", "sbbN"),
        ("fsR", "fsR"),
        ("vRsW", "vRsW"),
        ("gQ", "gQ"),
        ("R4", "R4"),
        ("NN", "NN"),
        ("WfF", "WfF"),
        ("FfsW", "FfsW"),
        ("flFbrF", "brflF"),
        ("mKcN", "mKcN"),
        ("mNcN", "N"),
        ("DAHCZG", "DAHCZG"),
        ("pB", "pB"),
    ] {
        let pos = with_piece(betza);
        let w = written(&pos);
        assert!(w.exact, "{betza}");
        assert_eq!(w.text, expected, "{betza}");
        let again = with_piece(&w.text);
        assert_eq!(reach(&again), reach(&pos), "{betza} written {}", w.text);
        assert_eq!(written(&again).text, w.text);
    }
}

/// XBoard's extensions: `i` for a first move, `e` for en passant, `O` for castling; a piece
/// whose rules Betza cannot say is written as far as it can and marked inexact.
#[test]
fn written_betza_has_first_moves_en_passant_castling_and_says_when_it_is_inexact() {
    let chess = common::start("chess.variant");
    let t = chess.tables();
    let of =
        |name: &str| rulebook::model::betza::write(t, t.variant().piece_by_name(name).unwrap());
    let king = of("King");
    assert_eq!((king.text.as_str(), king.exact), ("KO2", true));
    // The double step is guarded by a zone, which Betza has no word for.
    let pawn = of("Pawn");
    assert_eq!((pawn.text.as_str(), pawn.exact), ("mfWmnfDcefF", false));
    let first = written(&with_moves(
        "  move unmoved: step forward then step forward, move-only\n  move step any",
    ));
    assert_eq!((first.text.as_str(), first.exact), ("imnfDK", true));
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/definitions/xiangqi.variant"
    ))
    .unwrap();
    let xq = rulebook::load("xiangqi.variant", &text).unwrap();
    let xt = rulebook::model::Tables::compile(&xq, &[]).unwrap();
    let w = |name: &str| rulebook::model::betza::write(&xt, xq.piece_by_name(name).unwrap());
    // Kept in the palace: written as it moves there, inexact.
    assert_eq!(
        (w("General").text.as_str(), w("General").exact),
        ("W", false)
    );
    assert_eq!((w("Horse").text.as_str(), w("Horse").exact), ("nN", true));
    assert_eq!(
        (w("Cannon").text.as_str(), w("Cannon").exact),
        ("mRcpR", true)
    );
}

/// XBoard's own Betza: directions before modes (`fmW`, `ifmnD`, `fceF`), a rider's range
/// after its atom with `0` for none (`N0`, where `NN` would be two knights to XBoard); and
/// whether what is written covers every move, which XBoard needs to check moves.
#[test]
fn xboard_betza_orders_modifiers_as_xboard_reads_them_and_says_what_it_covers() {
    use rulebook::model::betza::{write_as, Dialect};
    let xboard = |pos: &Position| {
        let t = pos.tables();
        write_as(
            t,
            t.variant().piece_by_name("Piece").unwrap(),
            Dialect::XBoard,
        )
    };
    for (betza, expected) in [
        ("fmWfcF", "fmWfcF"),
        ("NN", "N0"),
        ("NN3", "N3"),
        ("R4", "R4"),
        ("mRcpR", "mRcpR"),
        ("fnA", "fnA"),
        ("gQ", "gQ"),
        ("bbNsN", "sbbN"),
    ] {
        let w = xboard(&with_piece(betza));
        assert_eq!(w.text, expected, "{betza}");
        assert!(w.exact && w.covers, "{betza}");
    }
    let first = xboard(&with_moves(
        "  move unmoved: step forward then step forward, move-only\n  move step any",
    ));
    assert_eq!(first.text, "ifmnDK");
    // Paths of three steps: a triple step (Omega chess's pawn), the Janggi elephant, and a
    // path with no lame atom (two orthogonal steps, then outward). XBoard's `n` tests one
    // square, half the leap away: the triple step's first only, and for `nZ` one off the
    // elephant's path. XBoard's legs (`a`, each leg turned from the one before) test every
    // square passed, and say each path exactly.
    let legs = |moves: &str| {
        let w = xboard(&with_moves(moves));
        (w.text, w.exact, w.covers)
    };
    assert_eq!(
        legs("  move unmoved: step forward then step same then step same, move-only"),
        ("ifmafmafmW".to_string(), true, true)
    );
    assert_eq!(
        legs("  move step orthogonal then step outward then step same"),
        ("mafsmafW".to_string(), true, true)
    );
    assert_eq!(
        legs("  move step orthogonal then step same then step outward"),
        ("mafmafsW".to_string(), true, true)
    );
    // A diagonal step, then an orthogonal one outward (the Gryphon's first square); the
    // Xiangqi horse and elephant keep XBoard's `n`, which says them exactly.
    assert_eq!(
        legs("  move step diagonal then step outward"),
        ("mafsF".to_string(), true, true)
    );
    assert_eq!(
        legs("  move step orthogonal then step outward"),
        ("nN".to_string(), true, true)
    );
    assert_eq!(
        legs("  move step diagonal then step same"),
        ("nA".to_string(), true, true)
    );
    // Turns that are not mirror images of each other at one leg are written one way each.
    assert_eq!(
        legs("  move step forward then step right then step forward, move-only"),
        ("fmarmalmW".to_string(), true, true)
    );
    // The reader's own dialect has no legs: the leap to where the path ends, inexact.
    let t = with_moves("  move step orthogonal then step same then step outward");
    let rhino = rulebook::model::betza::write(
        t.tables(),
        t.tables().variant().piece_by_name("Piece").unwrap(),
    );
    assert_eq!((rhino.text.as_str(), rhino.exact), ("C", false));
    let chess = common::start("chess.variant");
    let t = chess.tables();
    let pawn = write_as(
        t,
        t.variant().piece_by_name("Pawn").unwrap(),
        Dialect::XBoard,
    );
    // The double step's zone is left out: more is allowed, nothing is missing.
    assert_eq!(
        (pawn.text.as_str(), pawn.exact, pawn.covers),
        ("fmWfmnDfceF", false, true)
    );
    // Gala's Korna bends where the cross begins: Betza cannot cover it.
    let gala = common::start("gala.variant");
    let t = gala.tables();
    let korna = write_as(
        t,
        t.variant().piece_by_name("Korna").unwrap(),
        Dialect::XBoard,
    );
    assert!(!korna.covers && !korna.exact);
}
