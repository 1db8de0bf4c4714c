//! The board's frame: the soft shadow under it and its darker rim, drawn only where they show
//! around the wood face (as strips), because every covered pixel costs a software renderer (the
//! browser without a GPU) as much as a shown one.

use bevy::prelude::*;

/// The parts of `outer` outside `hole`: up to four rectangles (above, below, left, right) that
/// cover `outer` minus `hole` once each, with no gaps between them.
pub fn rect_minus(outer: Rect, hole: Rect) -> Vec<Rect> {
    let hole = outer.intersect(hole);
    if hole.is_empty() {
        return vec![outer];
    }
    let strips = [
        Rect::new(outer.min.x, hole.max.y, outer.max.x, outer.max.y),
        Rect::new(outer.min.x, outer.min.y, outer.max.x, hole.min.y),
        Rect::new(outer.min.x, hole.min.y, hole.min.x, hole.max.y),
        Rect::new(hole.max.x, hole.min.y, outer.max.x, hole.max.y),
    ];
    strips.into_iter().filter(|r| r.width() > 0.0 && r.height() > 0.0).collect()
}

/// A sprite showing the part `part` (world units) of a picture `image` of `image_size` pixels
/// stretched over `whole`, placed at `z`.
fn part_of_picture(image: &Handle<Image>, image_size: Vec2, whole: Rect, part: Rect, z: f32) -> (Sprite, Transform) {
    // The picture's rows run downwards, the world's y upwards.
    let to_pixels = |p: Vec2| Vec2::new(p.x - whole.min.x, whole.max.y - p.y) / whole.size() * image_size;
    let (a, b) = (to_pixels(Vec2::new(part.min.x, part.max.y)), to_pixels(Vec2::new(part.max.x, part.min.y)));
    let sprite = Sprite {
        image: image.clone(),
        rect: Some(Rect::from_corners(a, b)),
        custom_size: Some(part.size()),
        ..default()
    };
    (sprite, Transform::from_translation(part.center().extend(z)))
}

/// The shadow (`shadow`, a picture of `shadow_pixels` stretched 1.16 times the face, down and to
/// the right) and the rim (`rim` wide, in `rim_colour`) around a face of `face` size centred on the
/// origin, as sprites: only their parts outside the face. The face itself is drawn over them.
pub fn frame_sprites(
    face: Vec2,
    rim: f32,
    rim_colour: Color,
    shadow: &Handle<Image>,
    shadow_pixels: Vec2,
) -> Vec<(Sprite, Transform)> {
    let face_rect = Rect::from_center_size(Vec2::ZERO, face);
    let rim_rect = Rect::from_center_size(Vec2::ZERO, face + Vec2::splat(rim));
    let shadow_rect = Rect::from_center_size(Vec2::new(face.x * 0.02, -face.y * 0.03), face * 1.16);
    let mut sprites: Vec<(Sprite, Transform)> = rect_minus(shadow_rect, rim_rect)
        .into_iter()
        .map(|part| part_of_picture(shadow, shadow_pixels, shadow_rect, part, -5.0))
        .collect();
    // The rim's strips reach a pixel under the face, so no seam of background shows between them.
    let under_face = face_rect.inflate(-1.0);
    sprites.extend(rect_minus(rim_rect, under_face).into_iter().map(|part| {
        (Sprite::from_color(rim_colour, part.size()), Transform::from_translation(part.center().extend(-4.5)))
    }));
    sprites
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(rects: &[Rect]) -> f32 {
        rects.iter().map(|r| r.width() * r.height()).sum()
    }

    #[test]
    fn strips_cover_the_outside_of_the_hole_once() {
        let outer = Rect::new(-58.0, -61.0, 60.0, 55.0);
        let hole = Rect::new(-52.0, -52.0, 52.0, 52.0);
        let strips = rect_minus(outer, hole);
        assert_eq!(strips.len(), 4);
        assert!((area(&strips) - (outer.width() * outer.height() - hole.width() * hole.height())).abs() < 1e-3);
        // Every point of `outer` is in exactly one strip or in the hole.
        for i in 0..=40 {
            for j in 0..=40 {
                let p = outer.min + outer.size() * Vec2::new(i as f32 + 0.37, j as f32 + 0.41) / 41.0;
                let inside = strips.iter().filter(|r| r.contains(p)).count() + usize::from(hole.contains(p));
                assert_eq!(inside, 1, "{p}");
            }
        }
    }

    #[test]
    fn a_hole_beyond_an_edge_leaves_fewer_strips() {
        // The hole reaches past the outer rectangle's left side: nothing is left on the left.
        let strips = rect_minus(Rect::new(0.0, 0.0, 10.0, 10.0), Rect::new(-5.0, 2.0, 6.0, 8.0));
        assert_eq!(strips.len(), 3);
        assert!((area(&strips) - (100.0 - 36.0)).abs() < 1e-4);
        // No hole at all: the whole rectangle.
        assert_eq!(rect_minus(Rect::new(0.0, 0.0, 1.0, 1.0), Rect::new(5.0, 5.0, 6.0, 6.0)).len(), 1);
    }

    #[test]
    fn the_frame_draws_only_around_the_face() {
        let face = Vec2::new(600.0, 560.0);
        let sprites = frame_sprites(face, 8.0, Color::BLACK, &Handle::default(), Vec2::splat(64.0));
        let drawn: f32 = sprites.iter().map(|(s, _)| s.custom_size.unwrap().x * s.custom_size.unwrap().y).sum();
        // Full rectangles drew the shadow (1.16² faces) and the rim (a face and a bit) under it.
        let full = face.x * face.y * (1.16 * 1.16) + (face.x + 8.0) * (face.y + 8.0);
        assert!(drawn < full * 0.3, "{drawn} of {full}");
        // The shadow's strips sample the matching parts of its picture: the right-hand strip ends
        // at the picture's right edge and spans the rows beside the rim.
        let (right, at) = sprites
            .iter()
            .filter(|(s, _)| s.color == Color::WHITE)
            .max_by(|a, b| a.1.translation.x.total_cmp(&b.1.translation.x))
            .unwrap();
        let rect = right.rect.unwrap();
        assert!((rect.max.x - 64.0).abs() < 1e-3, "{rect:?}");
        let shadow_top = -face.y * 0.03 + face.y * 0.58;
        let rim_top = face.y / 2.0 + 4.0;
        assert!((rect.min.y - (shadow_top - rim_top) / (face.y * 1.16) * 64.0).abs() < 1e-3, "{rect:?}");
        assert!(at.translation.x > face.x / 2.0);
    }
}
