//! The board's art, drawn at start-up from fixed seeds (no downloaded images): wood with its grain
//! for each theme, lit stones with a rim and a soft drop shadow, a soft shadow for the board, and a
//! rounded badge. Each picture is a plain RGBA buffer made by a pure function (tested below); the
//! plugin turns them into `Image` assets once, so a frame only draws sprites.

use crate::rules::{GameRng, seeded};
use bevy::asset::RenderAssetUsages;
use bevy::image::{Image, ImageSampler};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use rand::RngExt;

/// A picture: `size` × `size` pixels, RGBA, sRGB, row by row from the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    pub size: usize,
    pub rgba: Vec<u8>,
}

impl Picture {
    fn new(size: usize) -> Self {
        Picture { size, rgba: vec![0; size * size * 4] }
    }

    fn set(&mut self, x: usize, y: usize, c: [f32; 4]) {
        let i = (y * self.size + x) * 4;
        for (byte, value) in self.rgba[i..i + 4].iter_mut().zip(c) {
            *byte = (value.clamp(0.0, 1.0) * 255.0).round() as u8;
        }
    }

    /// The pixel at `(x, y)` as RGBA.
    #[cfg(test)]
    pub fn at(&self, x: usize, y: usize) -> [u8; 4] {
        let i = (y * self.size + x) * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }

    /// As a Bevy image (sRGB, kept on the CPU side too only where the renderer needs it).
    pub fn into_image(self) -> Image {
        Image::new(
            Extent3d { width: self.size as u32, height: self.size as u32, depth_or_array_layers: 1 },
            TextureDimension::D2,
            self.rgba,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::RENDER_WORLD,
        )
    }
}

/// Smooth value noise on a lattice of random values that wraps every `period` cells across and
/// down: sampled over a whole number of periods, the wood tiles without a seam.
struct Noise {
    period: (usize, usize),
    values: Vec<f32>,
}

impl Noise {
    fn new(rng: &mut GameRng, period: (usize, usize)) -> Self {
        Noise { period, values: (0..period.0 * period.1).map(|_| rng.random_range(0.0..1.0)).collect() }
    }

    fn lattice(&self, x: i64, y: i64) -> f32 {
        let (w, h) = (self.period.0 as i64, self.period.1 as i64);
        self.values[(y.rem_euclid(h) * w + x.rem_euclid(w)) as usize]
    }

    /// Noise at `(x, y)` in lattice units, in 0..1.
    fn at(&self, x: f32, y: f32) -> f32 {
        let (x0, y0) = (x.floor(), y.floor());
        let smooth = |t: f32| t * t * (3.0 - 2.0 * t);
        let (tx, ty) = (smooth(x - x0), smooth(y - y0));
        let (ix, iy) = (x0 as i64, y0 as i64);
        let top = self.lattice(ix, iy) * (1.0 - tx) + self.lattice(ix + 1, iy) * tx;
        let bottom = self.lattice(ix, iy + 1) * (1.0 - tx) + self.lattice(ix + 1, iy + 1) * tx;
        top * (1.0 - ty) + bottom * ty
    }

    /// Several octaves: coarse shapes with finer detail on top, in 0..1.
    fn fractal(&self, x: f32, y: f32, octaves: u32) -> f32 {
        let (mut sum, mut weight, mut total, mut scale) = (0.0, 1.0, 0.0, 1.0);
        for _ in 0..octaves {
            sum += self.at(x * scale, y * scale) * weight;
            total += weight;
            weight *= 0.5;
            scale *= 2.0;
        }
        sum / total
    }
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// An sRGB colour in 0..1 from 0..255.
fn unit(c: [u8; 3]) -> [f32; 3] {
    [c[0] as f32 / 255.0, c[1] as f32 / 255.0, c[2] as f32 / 255.0]
}

/// Wood: long grain lines along the x axis, bent by coarse noise, with fine fibres, between a
/// `light` and a `dark` tone. The same seed gives the same wood, and it tiles seamlessly.
pub fn wood(size: usize, light: [u8; 3], dark: [u8; 3], seed: u64) -> Picture {
    let mut rng = seeded(seed);
    // Each noise is sampled over exactly its period (octaves double it), so the picture tiles.
    let coarse = Noise::new(&mut rng, (2, 8));
    let fibres = Noise::new(&mut rng, (4, 64));
    let (light, dark) = (unit(light), unit(dark));
    let mut out = Picture::new(size);
    for y in 0..size {
        for x in 0..size {
            let (u, v) = (x as f32 / size as f32, y as f32 / size as f32);
            let bend = coarse.fractal(u * 2.0, v * 8.0, 3);
            // Growth rings: a stripe every so often across the grain, bent by the noise.
            let ring = ((v * 24.0 + bend * 3.0) * std::f32::consts::TAU).sin() * 0.5 + 0.5;
            let fibre = fibres.fractal(u * 4.0, v * 64.0, 2);
            let t = (0.45 * ring.powf(3.0) + 0.35 * bend + 0.2 * fibre).clamp(0.0, 1.0);
            let c = mix(light, dark, t);
            out.set(x, y, [c[0], c[1], c[2], 1.0]);
        }
    }
    out
}

/// How a stone is lit and coloured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoneLook {
    /// The colour of the stone's body.
    pub body: [u8; 3],
    /// How strong the glossy highlight is (0: matt, 1: glossy).
    pub gloss: f32,
}

/// How much wider than a stone its picture is: room for the shadow below and to the right.
pub const STONE_PICTURE_SCALE: f32 = 1.3;

/// A stone lit from the upper left: a shaded body with a darker 1-pixel rim, a highlight, and a
/// soft drop shadow down and to the right. The stone's diameter is `size / STONE_PICTURE_SCALE`.
pub fn stone(size: usize, look: StoneLook) -> Picture {
    let mut out = Picture::new(size);
    let s = size as f32;
    let r = s / STONE_PICTURE_SCALE / 2.0;
    // The stone in the picture's centre; its shadow down and to the right, within the margin.
    let centre = (s / 2.0, s / 2.0);
    let shadow = (centre.0 + r * 0.1, centre.1 + r * 0.14);
    let body = unit(look.body);
    let rim = [body[0] * 0.55, body[1] * 0.55, body[2] * 0.55];
    // The light comes from the upper left and a little in front.
    let light = {
        let (x, y, z) = (-0.45f32, -0.55f32, 0.7f32);
        let n = (x * x + y * y + z * z).sqrt();
        (x / n, y / n, z / n)
    };
    for py in 0..size {
        for px in 0..size {
            let (x, y) = (px as f32 + 0.5, py as f32 + 0.5);
            let ds = ((x - shadow.0).powi(2) + (y - shadow.1).powi(2)).sqrt() / r;
            let shadow_alpha = 0.38 * (1.0 - ((ds - 0.85) / 0.3).clamp(0.0, 1.0));
            let (dx, dy) = ((x - centre.0) / r, (y - centre.1) / r);
            let d = (dx * dx + dy * dy).sqrt();
            // Coverage of the disc over this pixel (one pixel of anti-aliasing at the edge).
            let cover = ((1.0 - d) * r + 0.5).clamp(0.0, 1.0);
            if cover <= 0.0 {
                out.set(px, py, [0.0, 0.0, 0.0, shadow_alpha]);
                continue;
            }
            // A flattened dome: the normal tilts toward the edge.
            let z = (1.0 - (d * d).min(1.0)).sqrt() * 0.8 + 0.2;
            let n = {
                let len = (dx * dx + dy * dy + z * z).sqrt();
                (dx / len, dy / len, z / len)
            };
            let lambert = (n.0 * light.0 + n.1 * light.1 + n.2 * light.2).max(0.0);
            let shade = 0.55 + 0.6 * lambert;
            // A highlight where the light reflects toward the viewer.
            let half = {
                let (x, y, z) = (light.0, light.1, light.2 + 1.0);
                let len = (x * x + y * y + z * z).sqrt();
                (x / len, y / len, z / len)
            };
            let spec = (n.0 * half.0 + n.1 * half.1 + n.2 * half.2).max(0.0).powf(40.0) * look.gloss;
            let mut c = [
                (body[0] * shade + spec).min(1.0),
                (body[1] * shade + spec).min(1.0),
                (body[2] * shade + spec).min(1.0),
            ];
            // The rim: the outer pixel and a half of the disc, darker.
            let rim_width = 1.5 / r;
            if d > 1.0 - rim_width {
                let t = ((d - (1.0 - rim_width)) / rim_width).clamp(0.0, 1.0);
                c = mix(c, rim, t);
            }
            // Over the shadow: blend the disc's coverage onto the shadow.
            let a = cover + shadow_alpha * (1.0 - cover);
            let blended = if a > 0.0 { [c[0] * cover / a, c[1] * cover / a, c[2] * cover / a] } else { c };
            out.set(px, py, [blended[0], blended[1], blended[2], a]);
        }
    }
    out
}

/// A soft shadow: a rounded square filling `inner` of the picture, fading out to its edge.
pub fn soft_shadow(size: usize, inner: f32) -> Picture {
    let mut out = Picture::new(size);
    let half = size as f32 / 2.0;
    let core = half * inner;
    for y in 0..size {
        for x in 0..size {
            let dx = ((x as f32 + 0.5 - half).abs() - core).max(0.0);
            let dy = ((y as f32 + 0.5 - half).abs() - core).max(0.0);
            let d = (dx * dx + dy * dy).sqrt() / (half - core).max(1.0);
            let a = (1.0 - d).clamp(0.0, 1.0).powf(1.5) * 0.7;
            out.set(x, y, [0.0, 0.0, 0.0, a]);
        }
    }
    out
}

/// A white disc with a soft edge (tinted by the sprite's colour: dots, badges' round ends).
pub fn disc(size: usize) -> Picture {
    let mut out = Picture::new(size);
    let r = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 + 0.5 - r).powi(2) + (y as f32 + 0.5 - r).powi(2)).sqrt();
            let a = (r - d).clamp(0.0, 1.0);
            out.set(x, y, [1.0, 1.0, 1.0, a]);
        }
    }
    out
}

/// A white ring (annulus) from `inner` to the edge (fractions of the radius), soft-edged.
pub fn ring(size: usize, inner: f32) -> Picture {
    let mut out = Picture::new(size);
    let r = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            let d = ((x as f32 + 0.5 - r).powi(2) + (y as f32 + 0.5 - r).powi(2)).sqrt();
            let a = (r - d).clamp(0.0, 1.0) * (d - r * inner).clamp(0.0, 1.0);
            out.set(x, y, [1.0, 1.0, 1.0, a]);
        }
    }
    out
}

/// A white rounded square outline (the keyboard cursor), `width` pixels wide with corners of
/// radius `corner` pixels.
pub fn rounded_outline(size: usize, width: f32, corner: f32) -> Picture {
    let mut out = Picture::new(size);
    let half = size as f32 / 2.0;
    for y in 0..size {
        for x in 0..size {
            // Distance to the rounded square's outline (signed distance of a rounded box).
            let (qx, qy) =
                ((x as f32 + 0.5 - half).abs() - (half - corner), (y as f32 + 0.5 - half).abs() - (half - corner));
            let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt() + qx.max(qy).min(0.0) - corner;
            let a = (0.5 - outside).clamp(0.0, 1.0) * (outside + width + 0.5).clamp(0.0, 1.0);
            out.set(x, y, [1.0, 1.0, 1.0, a]);
        }
    }
    out
}

/// A white triangle pointing up (the knight's facing arrow), soft-edged.
pub fn triangle(size: usize) -> Picture {
    let mut out = Picture::new(size);
    let s = size as f32;
    for y in 0..size {
        for x in 0..size {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            // The triangle's half-width at this height: nothing at the top, half the picture at
            // the bottom.
            let half = py / 2.0;
            let a = (half - (px - s / 2.0).abs()).clamp(0.0, 1.0) * (s - py).clamp(0.0, 1.0);
            out.set(x, y, [1.0, 1.0, 1.0, a]);
        }
    }
    out
}

/// The pictures the board draws with, for one theme.
pub struct ThemeArt {
    pub wood: Handle<Image>,
    /// Stones of the dark side, the light side and neutral ones.
    pub dark_stone: Handle<Image>,
    pub light_stone: Handle<Image>,
    pub neutral_stone: Handle<Image>,
}

/// The board's pictures: those of every theme used so far (made when first needed) and the
/// shapes every theme shares.
#[derive(Resource)]
pub struct BoardArt {
    themes: Vec<(crate::save::Theme, ThemeArt)>,
    /// How the wood is sampled: the renderer's default (bilinear), or its nearest texel on a
    /// software renderer (see [`BoardArt::sample_wood_nearest`]).
    wood_sampler: ImageSampler,
    pub shadow: Handle<Image>,
    pub disc: Handle<Image>,
    pub ring: Handle<Image>,
    pub cursor: Handle<Image>,
    pub triangle: Handle<Image>,
}

/// The seed of the wood's grain (the same wood every time).
const WOOD_SEED: u64 = 0x576F_6F64;
/// Pixels of the wood picture (it tiles) and of a stone's.
const WOOD_SIZE: usize = 512;
const STONE_SIZE: usize = 192;

impl BoardArt {
    pub fn new(images: &mut Assets<Image>) -> Self {
        BoardArt {
            themes: Vec::new(),
            wood_sampler: ImageSampler::Default,
            shadow: images.add(soft_shadow(64, 0.55).into_image()),
            disc: images.add(disc(64).into_image()),
            ring: images.add(ring(64, 0.72).into_image()),
            cursor: images.add(rounded_outline(96, 6.0, 18.0).into_image()),
            triangle: images.add(triangle(32).into_image()),
        }
    }

    /// The pictures of `theme`, made now if this is the first time it is shown.
    pub fn theme(&mut self, theme: crate::save::Theme, images: &mut Assets<Image>) -> &ThemeArt {
        if let Some(i) = self.themes.iter().position(|(t, _)| *t == theme) {
            return &self.themes[i].1;
        }
        let pal = crate::app::theme::board_palette(theme);
        let stone_of = |body, gloss| stone(STONE_SIZE, StoneLook { body, gloss }).into_image();
        let mut wood_image = wood(WOOD_SIZE, pal.wood_light, pal.wood_dark, WOOD_SEED).into_image();
        wood_image.sampler = self.wood_sampler.clone();
        let art = ThemeArt {
            wood: images.add(wood_image),
            dark_stone: images.add(stone_of(pal.dark, pal.dark_gloss)),
            light_stone: images.add(stone_of(pal.light, pal.light_gloss)),
            neutral_stone: images.add(stone_of(pal.neutral, pal.neutral_gloss)),
        };
        self.themes.push((theme, art));
        &self.themes.last().expect("just pushed").1
    }

    /// The wood made from now on is sampled at its nearest texel, for a software renderer. The
    /// face tiles the wood at one texel per point, so on a screen of one pixel per point (most
    /// desktops) this changes no pixel, and elsewhere the grain is soft enough that its texels
    /// do not show; bilinear filtering of the board's largest surface, though, cost SwiftShader
    /// about a tenth of each frame. (The renderer is known before the first board is dressed.)
    pub fn sample_wood_nearest(&mut self) {
        self.wood_sampler = ImageSampler::nearest();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luminance(p: [u8; 4]) -> f32 {
        0.2126 * p[0] as f32 + 0.7152 * p[1] as f32 + 0.0722 * p[2] as f32
    }

    #[test]
    fn the_wood_is_filtered_unless_a_software_renderer_asked_for_its_nearest_texel() {
        use crate::save::Theme;
        let mut images = Assets::<Image>::default();
        let mut art = BoardArt::new(&mut images);
        let sampler = |art: &mut BoardArt, images: &mut Assets<Image>, theme| {
            let wood = art.theme(theme, images).wood.clone();
            images.get(&wood).expect("the wood's image").sampler.clone()
        };
        assert!(matches!(sampler(&mut art, &mut images, Theme::Classic), ImageSampler::Default));
        art.sample_wood_nearest();
        let nearest = sampler(&mut art, &mut images, Theme::Night);
        assert!(
            matches!(nearest, ImageSampler::Descriptor(d) if d.mag_filter == bevy::image::ImageFilterMode::Nearest)
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_wood_and_it_has_grain() {
        let a = wood(64, [222, 184, 135], [180, 130, 80], 7);
        assert_eq!(a, wood(64, [222, 184, 135], [180, 130, 80], 7));
        assert_ne!(a, wood(64, [222, 184, 135], [180, 130, 80], 8));
        let lums: Vec<f32> = (0..64).map(|y| luminance(a.at(10, y))).collect();
        let (lo, hi) = lums.iter().fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
        assert!(hi - lo > 10.0, "no visible grain: {lo}..{hi}");
        assert!(a.rgba.chunks(4).all(|p| p[3] == 255), "wood is opaque");
    }

    #[test]
    fn the_wood_tiles_without_a_seam() {
        let w = wood(128, [222, 184, 135], [180, 130, 80], 3);
        // Across the edge the colour changes no more than between neighbouring pixels inside.
        let step = |a: [u8; 4], b: [u8; 4]| (luminance(a) - luminance(b)).abs();
        let inside: f32 = (0..128).map(|y| step(w.at(63, y), w.at(64, y))).sum();
        let across: f32 = (0..128).map(|y| step(w.at(127, y), w.at(0, y))).sum();
        assert!(across < inside * 2.0 + 64.0, "a seam across the edge: {across} against {inside} inside");
        let inside: f32 = (0..128).map(|x| step(w.at(x, 63), w.at(x, 64))).sum();
        let across: f32 = (0..128).map(|x| step(w.at(x, 127), w.at(x, 0))).sum();
        assert!(across < inside * 2.0 + 64.0, "a seam down the edge: {across} against {inside} inside");
    }

    #[test]
    fn a_stone_is_lit_from_the_upper_left_with_a_rim_and_a_shadow() {
        let s = 128;
        let pic = stone(s, StoneLook { body: [230, 225, 215], gloss: 0.3 });
        let r = s as f32 / STONE_PICTURE_SCALE / 2.0;
        let c = s as f32 / 2.0;
        let at = |dx: f32, dy: f32| pic.at((c + dx * r) as usize, (c + dy * r) as usize);
        // Lighter toward the light than away from it.
        assert!(luminance(at(-0.5, -0.5)) > luminance(at(0.5, 0.5)) + 20.0);
        // The rim is darker than the body just inside it.
        assert!(luminance(at(0.99, 0.0)) < luminance(at(0.8, 0.0)));
        // Opaque inside, transparent far corner, a soft shadow beyond the lower right edge.
        assert_eq!(at(0.0, 0.0)[3], 255);
        assert_eq!(pic.at(0, 0)[3], 0);
        let shadow = at(0.4, 1.08);
        assert!(shadow[3] > 20 && shadow[3] < 200 && luminance(shadow) < 40.0, "{shadow:?}");
    }

    #[test]
    fn shapes_are_soft_edged_and_centred() {
        let d = disc(32);
        assert_eq!(d.at(16, 16)[3], 255);
        assert_eq!(d.at(0, 0)[3], 0);
        let r = ring(32, 0.7);
        assert_eq!(r.at(16, 16)[3], 0, "a ring is empty inside");
        assert!(r.at(16, 1)[3] > 200);
        let o = rounded_outline(64, 3.0, 10.0);
        assert_eq!(o.at(32, 32)[3], 0);
        assert!(o.at(32, 1)[3] > 200, "the outline runs along the edge");
        assert_eq!(o.at(0, 0)[3], 0, "with rounded corners");
        let sh = soft_shadow(32, 0.5);
        assert!(sh.at(16, 16)[3] > sh.at(1, 16)[3]);
    }
}
