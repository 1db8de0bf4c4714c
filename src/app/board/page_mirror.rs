//! The browser page mirrors the match (screen, moves, where each space is on the canvas) into a
//! hidden element, so end-to-end tests can follow a game without reading pixels.

use super::project::BoardState;
use crate::app::match_state::CurrentMatch;
use crate::app::screen::Screen;
use bevy::prelude::*;
use serde_json::json;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Last,
        mirror_state.run_if(
            state_changed::<Screen>
                .or_else(resource_exists_and_changed::<CurrentMatch>)
                .or_else(resource_changed::<BoardState>),
        ),
    );
}

/// The mirrored state as JSON: screen, moves, the side to act, and each space's centre in CSS
/// pixels of the canvas.
fn state_json(
    screen: Screen,
    current: Option<&CurrentMatch>,
    board: &BoardState,
    to_viewport: impl Fn(Vec2) -> Option<Vec2>,
) -> String {
    let cells: serde_json::Map<String, serde_json::Value> = board
        .view
        .iter()
        .flat_map(|v| v.cells.iter())
        .filter_map(|c| {
            let at = to_viewport(board.to_world(c.x, c.y))?;
            Some((c.name.clone(), json!([at.x.round(), at.y.round()])))
        })
        .collect();
    json!({
        "screen": format!("{screen:?}"),
        "game": current.map(|m| m.game.kind().slug()),
        "history": current.map(|m| m.history.clone()).unwrap_or_default(),
        "players": current.map(|m| m.players.map(|p| p.map_or("human", |level| level.slug()))),
        "over": current.is_some_and(|m| m.is_over()),
        "cells": cells,
    })
    .to_string()
}

fn mirror_state(
    screen: Res<State<Screen>>,
    current: Option<Res<CurrentMatch>>,
    board: Res<BoardState>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    transforms: Query<&GlobalTransform>,
    mut last: Local<String>,
) {
    let Ok((camera, camera_at)) = cameras.single() else { return };
    // Board positions are relative to the board's root, which is offset to leave room for the HUD.
    let root = board.root.and_then(|r| transforms.get(r).ok()).copied().unwrap_or_default();
    let text = state_json(*screen.get(), current.as_deref(), &board, |p| {
        camera.world_to_viewport(camera_at, root.transform_point(p.extend(0.0))).ok()
    });
    if *last != text {
        write_to_page(&text);
        *last = text;
    }
}

fn write_to_page(text: &str) {
    let element = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("stoneyard-state"));
    if let Some(element) = element {
        element.set_text_content(Some(text));
    }
}
