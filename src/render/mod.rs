//! Everything that draws: board maps and move diagrams, as text and as SVG.
//!
//! One text format serves the CLI, the docs and the snapshots: ranks top down with their
//! numbers on the left, files lettered underneath, each square a cell as wide as the longest
//! piece letter (`+B`), walls between cells and the river drawn where the definition has them
//! (`text.rs`). A square shows its piece letter (uppercase for the first side), else a move
//! marker, else the glyph of the last declared zone that contains it and has one, else `.`.
//! The plain format of printed rule books keeps one character per square.

mod describe;
mod diagram;
mod gallery;
mod svg;
mod text;

pub use describe::{
    display_name, game_prose, piece_prose, running_name, squares_words, zone_phrase, GameProse,
    OptionText, PieceProse, PlaceText,
};
pub use diagram::{
    board_map, diagram_info, diagram_markers, diagram_marks, hands, markers_present, move_diagram,
    plain_diagram, plain_position, players, position_diagram, position_text, DiagramInfo,
    DiagramMode, LegendInfo, Marker, PlacedInfo, PlayerInfo, TargetInfo,
};
pub use gallery::{gallery, standing_squares, Gallery, GalleryDiagram, GalleryPiece};
pub use svg::{board_svg, move_diagram_svg, square_box};
pub use text::TextStyle;
