//! The board's text (coordinates, counts and badges, wrap names, Hidden Intention's figures) as
//! sprites: each text is drawn once into an image of its own by egui's font rasterizer, with the
//! panel's fonts, and tinted by its sprite. The text stays a board entity (under its piece, moved
//! and scaled by the animations, in the board's drawing order), and the browser build carries one
//! text engine instead of two (Bevy's text stack weighed about 0.3 MB of the gzipped module).

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::transform::TransformSystems;
use bevy::window::PrimaryWindow;
use bevy_egui::egui;
use bevy_egui::egui::epaint::text::{Fonts, TextOptions};
use std::collections::HashMap;

pub fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, (draw_board_texts, snap_to_pixels.after(TransformSystems::Propagate)));
}

/// A line of text on the board, centred on its entity; drawn as the entity's sprite.
#[derive(Component, Debug, Clone, PartialEq)]
#[require(Transform, Visibility)]
pub struct BoardText {
    pub text: String,
    /// The font's size in world units (a logical pixel at the board's scale).
    pub size: f32,
    pub colour: Color,
    pub font: BoardFont,
}

impl BoardText {
    /// A text in the board's monospace font (Hack).
    pub fn new(text: impl Into<String>, size: f32, colour: Color) -> Self {
        BoardText { text: text.into(), size, colour, font: BoardFont::Mono }
    }

    /// A chess symbol (Hidden Intention's figures).
    pub fn chess(symbol: char, size: f32, colour: Color) -> Self {
        BoardText { text: symbol.to_string(), size, colour, font: BoardFont::Chess }
    }
}

/// Which of the game's fonts a board text uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardFont {
    Mono,
    Chess,
}

impl BoardFont {
    fn family(self) -> egui::FontFamily {
        match self {
            BoardFont::Mono => egui::FontFamily::Monospace,
            BoardFont::Chess => egui::FontFamily::Name("chess".into()),
        }
    }
}

/// A text drawn into pixels: white with the glyphs' coverage as alpha, row by row from the top.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnText {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
}

/// The rasterizer and the images it drew, by font, text and size in pixels (texts repeat: the same
/// counts and coordinates come back on every board).
struct TextPainter {
    fonts: Fonts,
    drawn: HashMap<(BoardFont, String, u32), Handle<Image>>,
}

/// How many drawn texts are kept for reuse.
const DRAWN_KEPT: usize = 512;

/// The rasterizer's options: each glyph at a whole pixel, hinted (the panel's choice, sharper), its
/// coverage as it is (egui's default thickens light text on dark; the board's is mostly dark on
/// light wood, and kept the weight it had).
fn text_options() -> TextOptions {
    TextOptions {
        subpixel_binning: false,
        color_transfer_function: egui::epaint::FontColorTransferFunction::Off,
        ..Default::default()
    }
}

/// The fonts of the board: the panel's families, and the chess symbols as a family of their own.
fn board_fonts() -> Fonts {
    let mut definitions = crate::app::fonts::font_definitions();
    definitions.families.insert(BoardFont::Chess.family(), vec!["chess".into()]);
    Fonts::new(text_options(), definitions)
}

/// Draws `text` at `size` points and `pixels_per_point`, centred in an image with a margin on every
/// side (glyphs may reach past the line's box), so the image's centre is the line's centre.
pub fn draw_text(fonts: &mut Fonts, text: &str, size: f32, font: BoardFont, pixels_per_point: f32) -> DrawnText {
    fonts.begin_pass(text_options());
    let mut view = fonts.with_pixels_per_point(pixels_per_point);
    let galley = view.layout_no_wrap(text.to_string(), egui::FontId::new(size, font.family()), egui::Color32::WHITE);
    let atlas = view.image();
    let margin = (size * 0.4).ceil();
    let line = galley.rect.expand(margin);
    let width = (line.width() * pixels_per_point).ceil().max(1.0) as u32;
    let height = (line.height() * pixels_per_point).ceil().max(1.0) as u32;
    let mut alpha = vec![0u8; (width * height) as usize];
    for row in &galley.rows {
        for glyph in row.row.glyphs.iter().filter(|g| !g.uv_rect.is_nothing()) {
            let uv = glyph.uv_rect;
            let left_top = (row.pos + glyph.pos.to_vec2() + uv.offset - line.min) * pixels_per_point;
            let (x0, y0) = (left_top.x.round() as i64, left_top.y.round() as i64);
            for ty in uv.min[1]..uv.max[1] {
                for tx in uv.min[0]..uv.max[0] {
                    let (x, y) = (x0 + i64::from(tx - uv.min[0]), y0 + i64::from(ty - uv.min[1]));
                    if x < 0 || y < 0 || x >= i64::from(width) || y >= i64::from(height) {
                        continue;
                    }
                    let coverage = atlas[(tx as usize, ty as usize)].a();
                    let pixel = &mut alpha[y as usize * width as usize + x as usize];
                    *pixel = (*pixel).max(coverage);
                }
            }
        }
    }
    DrawnText { width, height, alpha }
}

impl DrawnText {
    /// The text as a texture: white, its coverage as alpha (a sprite's colour tints it).
    fn image(&self) -> Image {
        let data = self.alpha.iter().flat_map(|&a| [255, 255, 255, a]).collect();
        let mut image = Image::new(
            Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        );
        image.sampler = ImageSampler::linear();
        image
    }
}

/// Draws each new or changed board text into its sprite, at the window's pixel density (every
/// text again when the density changes: another screen, the browser's zoom).
fn draw_board_texts(
    mut commands: Commands,
    texts: Query<(Entity, Ref<BoardText>)>,
    windows: Query<&Window, With<PrimaryWindow>>,
    images: Option<ResMut<Assets<Image>>>,
    (mut painter, mut drawn_at): (Local<Option<TextPainter>>, Local<f32>),
) {
    let Some(mut images) = images else { return };
    let pixels_per_point = windows.single().map_or(1.0, Window::scale_factor).max(0.5);
    let density_changed = *drawn_at != pixels_per_point;
    *drawn_at = pixels_per_point;
    let mut texts = texts.iter().filter(|(_, text)| density_changed || text.is_changed()).peekable();
    if texts.peek().is_none() {
        return;
    }
    let painter = painter.get_or_insert_with(|| TextPainter { fonts: board_fonts(), drawn: HashMap::new() });
    // Every new board size brings new sizes of text: forget the old images now and then (those
    // still shown stay alive through their sprites).
    if painter.drawn.len() > DRAWN_KEPT {
        painter.drawn.clear();
    }
    for (e, text) in texts {
        let key = (text.font, text.text.clone(), (text.size * pixels_per_point * 8.0).round() as u32);
        let handle = match painter.drawn.get(&key) {
            Some(handle) => handle.clone(),
            None => {
                let drawn = draw_text(&mut painter.fonts, &text.text, text.size, text.font, pixels_per_point);
                let handle = images.add(drawn.image());
                painter.drawn.insert(key, handle.clone());
                handle
            }
        };
        let size = images.get(&handle).map(|i| i.size_f32() / pixels_per_point);
        commands.entity(e).insert(Sprite { image: handle, color: text.colour, custom_size: size, ..default() });
    }
}

/// The board's camera, where the board texts are seen from.
type BoardCamera<'w, 's> =
    Query<'w, 's, (&'static Camera, &'static GlobalTransform), (With<Camera2d>, Without<BoardText>)>;

/// Puts each text's image on whole pixels of the screen: a text drawn between two pixels would
/// be smeared over both by the sampler, paler than its neighbours.
fn snap_to_pixels(
    mut texts: Query<(&mut GlobalTransform, &Transform, Option<&ChildOf>, &Sprite), With<BoardText>>,
    parents: Query<&GlobalTransform, Without<BoardText>>,
    cameras: BoardCamera,
    images: Option<Res<Assets<Image>>>,
    windows: Query<&Window, With<PrimaryWindow>>,
) {
    let (Ok((camera, eye)), Some(images)) = (cameras.single(), images) else { return };
    let pixels_per_point = windows.single().map_or(1.0, Window::scale_factor);
    for (mut at, local, parent, sprite) in &mut texts {
        let Some(image) = images.get(&sprite.image) else { continue };
        // From where the hierarchy puts it, not from last frame's snapped place (which would drift
        // as the view moves).
        let placed = match parent.and_then(|p| parents.get(p.parent()).ok()) {
            Some(parent) => parent.mul_transform(*local),
            None => GlobalTransform::from(*local),
        };
        let half = image.size_f32() / 2.0;
        let Ok(on_screen) = camera.world_to_viewport(eye, placed.translation()) else { continue };
        // The image's top left corner on a whole pixel.
        let corner = (on_screen * pixels_per_point - half).round() + half;
        let Ok(snapped) = camera.viewport_to_world_2d(eye, corner / pixels_per_point) else { continue };
        let (scale, rotation, translation) = placed.to_scale_rotation_translation();
        *at = GlobalTransform::from(Transform { translation: snapped.extend(translation.z), rotation, scale });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The columns and rows of `drawn` that hold ink.
    fn inked(drawn: &DrawnText) -> (std::ops::RangeInclusive<u32>, std::ops::RangeInclusive<u32>) {
        let at = |x: u32, y: u32| drawn.alpha[(y * drawn.width + x) as usize] > 64;
        let cols: Vec<u32> = (0..drawn.width).filter(|&x| (0..drawn.height).any(|y| at(x, y))).collect();
        let rows: Vec<u32> = (0..drawn.height).filter(|&y| (0..drawn.width).any(|x| at(x, y))).collect();
        (cols[0]..=*cols.last().unwrap(), rows[0]..=*rows.last().unwrap())
    }

    #[test]
    fn a_text_is_drawn_centred_and_wider_texts_are_wider() {
        let mut fonts = board_fonts();
        let one = draw_text(&mut fonts, "8", 20.0, BoardFont::Mono, 1.0);
        let three = draw_text(&mut fonts, "+12", 20.0, BoardFont::Mono, 1.0);
        let (cols, rows) = inked(&one);
        // The digit's ink sits about the image's centre.
        let centre = |r: &std::ops::RangeInclusive<u32>| (*r.start() + *r.end()) as f32 / 2.0;
        assert!((centre(&cols) - one.width as f32 / 2.0).abs() <= 2.0, "{cols:?} of {}", one.width);
        assert!((centre(&rows) - one.height as f32 / 2.0).abs() <= 3.0, "{rows:?} of {}", one.height);
        // A digit of a 20 px font is about 14 px tall.
        assert!((10..=18).contains(&(rows.end() - rows.start())), "{rows:?}");
        let (wide, _) = inked(&three);
        assert!(wide.end() - wide.start() > 2 * (cols.end() - cols.start()), "{wide:?} against {cols:?}");
    }

    #[test]
    fn twice_the_pixel_density_draws_twice_the_pixels() {
        let mut fonts = board_fonts();
        let single = draw_text(&mut fonts, "a1", 14.0, BoardFont::Mono, 1.0);
        let double = draw_text(&mut fonts, "a1", 14.0, BoardFont::Mono, 2.0);
        assert!(double.width.abs_diff(2 * single.width) <= 2 && double.height.abs_diff(2 * single.height) <= 2);
    }

    #[test]
    fn the_chess_figures_are_drawn_from_the_chess_font() {
        let mut fonts = board_fonts();
        let (filled, _) = crate::app::fonts::figure_symbols(crate::rules::Figure::Knight);
        let knight = draw_text(&mut fonts, &filled.to_string(), 40.0, BoardFont::Chess, 1.0);
        let (cols, rows) = inked(&knight);
        assert!(cols.end() - cols.start() > 20 && rows.end() - rows.start() > 20, "{cols:?} {rows:?}");
        // A filled figure is mostly ink inside its outline.
        let ink = knight.alpha.iter().filter(|&&a| a > 128).count();
        assert!(ink > 300, "{ink} inked pixels");
    }
}
