//! The game's fonts: Ubuntu Light for the menus' and panel's text, Hack for monospace and for the
//! board's labels (each egui family falls back on the other: Hack has the arrows Ubuntu lacks),
//! and DejaVu Sans's chess symbols for Hidden Intention's figures (on the board, and as a last
//! fallback of both egui families so the panel can name figures by their symbol).
//! Both are subsets made for Stoneyard (`assets/fonts/README.md`), which keeps the browser
//! download small; egui's emoji fonts are left out because no text of the game uses emoji. The
//! desktop build holds them; the browser's page fetches them beside the game's module (files of
//! their own, not in the module's size) and hands them over before the game starts.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::sync::Arc;

/// Ubuntu Light, cut down to the characters a player can meet (`scripts/subset-fonts.sh`).
#[cfg(not(target_arch = "wasm32"))]
pub const UBUNTU_LIGHT: &[u8] = include_bytes!("../../assets/fonts/UbuntuLight-derivative-Stoneyard.ttf");
/// Hack, cut down the same way.
#[cfg(not(target_arch = "wasm32"))]
pub const HACK: &[u8] = include_bytes!("../../assets/fonts/Hack-Stoneyard.ttf");
/// The twelve chess symbols of DejaVu Sans (U+2654–U+265F).
#[cfg(not(target_arch = "wasm32"))]
pub const CHESS: &[u8] = include_bytes!("../../assets/fonts/ChessFigures-Stoneyard.ttf");

/// One of the game's fonts: the desktop's own copy.
#[cfg(not(target_arch = "wasm32"))]
fn font_bytes(name: &str) -> &'static [u8] {
    match name {
        "ubuntu" => UBUNTU_LIGHT,
        "hack" => HACK,
        _ => CHESS,
    }
}

/// One of the game's fonts: the bytes the page fetched (`window.stoneyardFonts[name]`, a
/// Uint8Array; the page does not start the game without them), read once and kept.
#[cfg(target_arch = "wasm32")]
fn font_bytes(name: &str) -> &'static [u8] {
    use std::sync::OnceLock;
    static FONTS: OnceLock<[&'static [u8]; 3]> = OnceLock::new();
    let fonts = FONTS.get_or_init(|| {
        let read = |name: &str| -> &'static [u8] {
            let fonts = web_sys::window()
                .and_then(|w| js_sys::Reflect::get(&w, &"stoneyardFonts".into()).ok())
                .and_then(|f| js_sys::Reflect::get(&f, &name.into()).ok())
                .map(|bytes| js_sys::Uint8Array::new(&bytes).to_vec())
                .unwrap_or_default();
            if fonts.is_empty() {
                error!("the page did not hand over the font {name}");
            }
            Vec::leak(fonts)
        };
        [read("ubuntu"), read("hack"), read("chess")]
    });
    match name {
        "ubuntu" => fonts[0],
        "hack" => fonts[1],
        _ => fonts[2],
    }
}

/// The chess symbols of a figure: its filled form (drawn in the owner's colour) and its outlined
/// form (drawn over it as the outline). The diagonal pawn is a pawn (the board marks it apart).
pub fn figure_symbols(figure: crate::rules::Figure) -> (char, char) {
    use crate::rules::Figure::*;
    // U+2654.. are the outlined ("white") symbols, U+265A.. the filled ("black") ones: king,
    // queen, rook, bishop, knight, pawn.
    let offset = match figure {
        Queen => 1,
        Rook => 2,
        Bishop => 3,
        Knight => 4,
        Pawn | DiagonalPawn => 5,
    };
    let at = |base: u32| char::from_u32(base + offset).unwrap_or('?');
    (at(0x265A), at(0x2654))
}

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, install_fonts);
}

/// The font set: Ubuntu Light first for proportional text, Hack first for monospace, the chess
/// figures last in both. Each glyph is drawn once per size at a whole pixel, not at four
/// fractions of one (egui's sub-pixel binning): sharper text, and a quarter of the glyphs to draw
/// into the atlas.
pub fn font_definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::empty();
    let font = |bytes: &'static [u8]| {
        let tweak = egui::FontTweak { subpixel_binning: Some(false), ..Default::default() };
        Arc::new(egui::FontData::from_static(bytes).tweak(tweak))
    };
    for name in ["ubuntu", "hack", "chess"] {
        fonts.font_data.insert(name.into(), font(font_bytes(name)));
    }
    fonts.families.insert(egui::FontFamily::Proportional, vec!["ubuntu".into(), "hack".into(), "chess".into()]);
    fonts.families.insert(egui::FontFamily::Monospace, vec!["hack".into(), "ubuntu".into(), "chess".into()]);
    fonts
}

/// The sizes (points) of the playing screen's text, proportional and monospace, whose glyphs are
/// drawn before they are needed (a test keeps this in step with the panel's code).
const PANEL_SIZES: [f32; 9] = [13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 20.0, 22.0, 26.0];
const PANEL_MONOSPACE_SIZES: [f32; 3] = [15.0, 16.0, 18.0];
/// What the panel's texts may contain besides printable ASCII.
const PANEL_PUNCTUATION: &str = "…·—–−→×•“”◀▶≤±°";

/// The text that draws every glyph the playing screen's panel may need.
fn panel_characters() -> String {
    (' '..='~').chain(PANEL_PUNCTUATION.chars()).collect()
}

/// Installs the fonts, then (on the next pass, when egui uses them, and again whenever the pixels
/// per point change) draws the panel's glyphs into egui's atlas at once. Otherwise a move's first
/// frame often carried a new glyph, and with it the whole atlas to the GPU again (Bevy uploads a
/// changed image whole): half a megabyte, beside the move's other work.
fn install_fonts(mut contexts: EguiContexts, mut installed: Local<bool>, mut warmed_at: Local<Option<f32>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !*installed {
        ctx.set_fonts(font_definitions());
        *installed = true;
        return Ok(());
    }
    let pixels_per_point = ctx.pixels_per_point();
    if *warmed_at != Some(pixels_per_point) {
        *warmed_at = Some(pixels_per_point);
        warm_panel_glyphs(ctx);
    }
    Ok(())
}

/// Lays out every character the panel may write at each of its sizes, which draws the glyphs.
fn warm_panel_glyphs(ctx: &egui::Context) {
    let text = panel_characters();
    let proportional = PANEL_SIZES.iter().map(|&size| egui::FontId::proportional(size));
    let monospace = PANEL_MONOSPACE_SIZES.iter().map(|&size| egui::FontId::monospace(size));
    ctx.fonts_mut(|fonts| {
        for font in proportional.chain(monospace) {
            fonts.layout_no_wrap(text.clone(), font, egui::Color32::WHITE);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::theme::text_size;
    use std::collections::BTreeSet;
    use std::path::Path;

    /// Every character inside a string literal of the game's sources and lesson books (comments
    /// left out): the texts of the menus, HUD, labels, rules help and lessons.
    fn characters_the_game_writes() -> BTreeSet<char> {
        fn visit(dir: &Path, out: &mut BTreeSet<char>) {
            for entry in std::fs::read_dir(dir).expect("the source directory") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    visit(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs" || e == "ron") {
                    let text = std::fs::read_to_string(&path).expect("a source file");
                    for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                        let code = line.split(" // ").next().unwrap_or(line);
                        // Odd-numbered pieces between quotes are inside a string literal.
                        for piece in code.split('"').skip(1).step_by(2) {
                            out.extend(piece.chars());
                        }
                    }
                }
            }
        }
        let mut chars = BTreeSet::new();
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        visit(&root.join("src"), &mut chars);
        visit(&root.join("assets/lessons"), &mut chars);
        chars
    }

    #[test]
    fn every_character_the_game_writes_has_a_glyph_in_each_family() {
        let fonts = font_definitions();
        let faces = |family: egui::FontFamily| -> Vec<ttf_parser::Face<'static>> {
            fonts.families[&family]
                .iter()
                .map(|name| match name.as_str() {
                    "ubuntu" => UBUNTU_LIGHT,
                    "hack" => HACK,
                    "chess" => CHESS,
                    other => panic!("unexpected font {other}"),
                })
                .map(|bytes| ttf_parser::Face::parse(bytes, 0).expect("a font file"))
                .collect()
        };
        let written = characters_the_game_writes();
        assert!(written.contains(&'—') && written.contains(&'→'), "the scan finds the game's texts");
        // What a player may type into a save's name: Latin-1 and Latin Extended-A.
        let typed = ('\u{a0}'..='\u{17f}').filter(|c| !c.is_control());
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let faces = faces(family.clone());
            for c in written.iter().copied().filter(|c| !c.is_control()).chain(typed.clone()) {
                assert!(faces.iter().any(|f| f.glyph_index(c).is_some()), "{family:?} has no glyph for {c:?}");
            }
        }
        assert!(
            faces(egui::FontFamily::Proportional)[0].glyph_index('→').is_none(),
            "Ubuntu lacks arrows: Hack backs it"
        );
    }

    /// A pass of `ctx` drawing `texts` (size, monospace?, text); whether it changed the font atlas.
    fn pass_changes_the_atlas(ctx: &egui::Context, texts: &[(f32, bool, &str)]) -> bool {
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
            for &(size, monospace, text) in texts {
                let text = egui::RichText::new(text).size(size);
                ui.label(if monospace { text.monospace() } else { text });
            }
        });
        let changed = !output.textures_delta.set.is_empty();
        output.textures_delta.clear();
        changed
    }

    #[test]
    fn after_the_warm_up_the_panel_s_texts_draw_no_new_glyph() {
        let ctx = egui::Context::default();
        ctx.set_fonts(font_definitions());
        pass_changes_the_atlas(&ctx, &[]);
        ctx.run_ui(egui::RawInput::default(), |ui| warm_panel_glyphs(ui.ctx())).textures_delta.clear();
        let panel = [
            (text_size::SMALL, false, "Thinking… 1. Black C3 · stones 12 → E5 × “pie”"),
            (18.0, false, "White  to move: Place a stone of your colour"),
            (text_size::HEADING, false, "Red Stone — Game over (−3)"),
            (15.0, true, " 12. White  d4>d5 (+2)"),
            (18.0, true, "◀ ▶"),
        ];
        assert!(!pass_changes_the_atlas(&ctx, &panel), "the panel's texts needed new glyphs");
        // The same check sees a size that was not warmed.
        assert!(pass_changes_the_atlas(&ctx, &[(31.0, false, "Thinking")]));
    }

    #[test]
    fn the_warm_up_covers_every_text_size_of_the_panel() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/hud");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).expect("the HUD's sources") {
            let text = std::fs::read_to_string(entry.expect("a file").path()).expect("a source file");
            for line in text.lines() {
                for argument in line.split(".size(").skip(1).filter_map(|rest| rest.split(')').next()) {
                    let size = match argument {
                        "text_size::SMALL" => text_size::SMALL,
                        "text_size::BODY" => text_size::BODY,
                        "text_size::BUTTON" => text_size::BUTTON,
                        "text_size::HEADING" => text_size::HEADING,
                        literal => match literal.parse::<f32>() {
                            Ok(size) => size,
                            Err(_) => continue, // a size computed at run time
                        },
                    };
                    let warmed = if line.contains("monospace") { &PANEL_MONOSPACE_SIZES[..] } else { &PANEL_SIZES[..] };
                    assert!(warmed.contains(&size), "{line:?}: size {size} is not warmed up");
                    seen += 1;
                }
            }
        }
        assert!(seen > 20, "the scan finds the panel's sizes ({seen})");
    }

    #[test]
    fn every_figure_has_a_filled_and_an_outlined_symbol_in_the_chess_font() {
        use crate::rules::Figure::*;
        let chess = ttf_parser::Face::parse(CHESS, 0).expect("a font file");
        for f in [Pawn, DiagonalPawn, Rook, Bishop, Knight, Queen] {
            let (filled, outlined) = figure_symbols(f);
            assert_eq!(filled as u32 - outlined as u32, 6, "{f:?}");
            assert!(chess.glyph_index(filled).is_some() && chess.glyph_index(outlined).is_some(), "{f:?}");
        }
    }

    #[test]
    fn the_chess_font_has_every_figure_in_both_forms() {
        let chess = ttf_parser::Face::parse(CHESS, 0).expect("a font file");
        for c in '\u{2654}'..='\u{265F}' {
            assert!(chess.glyph_index(c).is_some(), "no chess glyph for {c:?}");
        }
    }

    #[test]
    fn the_board_labels_font_has_every_label_character() {
        // Board labels: coordinates, counts, Hidden Intention's figure letters, danger marks.
        let hack = ttf_parser::Face::parse(HACK, 0).expect("a font file");
        for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!?+-·".chars() {
            assert!(hack.glyph_index(c).is_some(), "Hack has no glyph for {c:?}");
        }
    }
}
