//! The browser page mirrors the match (screen, moves, where each space is on the canvas, what the
//! computer did) into a hidden element, so end-to-end tests can follow a game without reading
//! pixels; natively the same JSON goes to the file named by `STONEYARD_STATE_FILE`, when set (for
//! scripts that drive the window under Xvfb).

use super::gestures::BoardZoom;
use super::project::BoardState;
use crate::app::lesson_state::{BookState, LessonBooks, LessonRun};
use crate::app::match_state::CurrentMatch;
use crate::app::menus::SetupChoice;
use crate::app::playing::{BoardAnimating, ComputerStatus, HintShown};
use crate::app::review_state::ReviewShown;
use crate::app::screen::Screen;
use crate::lessons::Standing;
use bevy::prelude::*;
use serde_json::json;

/// Where the mirror goes natively (`None`: nowhere, and nothing is computed); the page has its
/// element instead.
#[derive(Resource)]
struct MirrorFile(#[cfg_attr(target_arch = "wasm32", allow(dead_code))] Option<std::path::PathBuf>);

pub fn plugin(app: &mut App) {
    let file = if cfg!(target_arch = "wasm32") {
        None
    } else {
        std::env::var_os("STONEYARD_STATE_FILE").map(std::path::PathBuf::from)
    };
    let wanted = cfg!(target_arch = "wasm32") || file.is_some();
    app.insert_resource(MirrorFile(file));
    app.add_systems(
        Last,
        mirror_state.run_if(move || wanted).run_if(
            state_changed::<Screen>
                .or_else(resource_exists_and_changed::<CurrentMatch>)
                .or_else(resource_changed::<BoardState>)
                .or_else(resource_changed::<ComputerStatus>)
                .or_else(resource_changed::<BoardAnimating>)
                .or_else(resource_changed::<BoardZoom>)
                .or_else(resource_changed::<HintShown>)
                .or_else(resource_changed::<LessonBooks>)
                .or_else(resource_exists_and_changed::<LessonRun>)
                .or_else(resource_changed::<ReviewShown>)
                .or_else(resource_exists_and_changed::<SetupChoice>),
        ),
    );
}

/// The mirrored state as JSON: screen, moves, the side to act, and each space's centre in CSS
/// pixels of the canvas.
fn state_json(
    screen: Screen,
    current: Option<&CurrentMatch>,
    board: &BoardState,
    (computer, zoom, hint, animating): (&ComputerStatus, &BoardZoom, &HintShown, bool),
    (lesson, books, review, setup): (Option<&LessonRun>, &LessonBooks, &ReviewShown, Option<&SetupChoice>),
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
        "game": current.map(|m| m.position().kind().slug()),
        "history": current.map(|m| m.history()).unwrap_or_default(),
        "players": current.map(|m| m.players.map(|p| p.map_or("human", |level| level.slug()))),
        "over": current.is_some_and(|m| m.is_over()),
        // What the player may decide now (tests pick a move to drag from it).
        "decisions": current.map(|m| m.decisions_now()).unwrap_or_default(),
        // Whether a person at this device is to act (not the computer, not an online opponent).
        "person_to_act": current.is_some_and(|m| !m.is_over() && m.acting_side().is_some_and(|s| m.person_plays(s))),
        "cells": cells,
        // The last change is still being shown: a press now only skips to its end.
        "animating": animating,
        "zoom": { "factor": zoom.factor, "offered": zoom.offered() },
        // The lesson on the board and how the learner stands; how many lessons each read book has.
        "lesson": lesson.map(|run| json!({
            "game": run.game.slug(),
            "id": run.lesson.id,
            "index": run.index,
            "count": run.count,
            "standing": match &run.standing {
                Standing::OnTheWay => "on the way",
                Standing::Solved => "solved",
                Standing::Wrong(_) => "wrong",
                Standing::Astray => "astray",
            },
        })),
        "books": books.0.iter().map(|(kind, state)| (kind.slug().to_string(), match state {
            BookState::Ready(book) => json!(book.lessons.len()),
            BookState::Loading => json!("loading"),
            BookState::Failed(e) => json!(e),
        })).collect::<serde_json::Map<_, _>>(),
        // The review on the screen: positions analysed of all, each turn's label so far, and the
        // graph's points (the first side's win chance from the start, one per judged turn).
        "review": review.review.as_ref().map(|r| json!({
            "progress": [r.progress().0, r.progress().1],
            "reloaded": review.reloaded,
            "at_once": review.most_at_once,
            "labels": (0..r.turns.len()).map(|t| r.judgement(t).map(|j| j.label.name())).collect::<Vec<_>>(),
            "graph": r.first_side_curve().iter().flatten().map(|v| (v * 1000.0).round() / 1000.0).collect::<Vec<_>>(),
        })),
        // The setup screen's choices (tests tap until they show what was asked for).
        "setup": setup.map(|c| json!({
            "game": c.kind.slug(),
            "options": c.values.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "players": c.players.map(|p| p.map_or("human", |level| level.slug())),
        })),
        "computer": {
            "thinking": computer.is_thinking(),
            "hint": hint.suggestion.as_ref().map(|(_, decision)| decision),
            "last": computer.last.map(|r| json!({ "place": r.place, "iterations": r.iterations, "ms": r.millis, "searchers": r.searchers })),
        },
    })
    .to_string()
}

fn mirror_state(
    screen: Res<State<Screen>>,
    current: Option<Res<CurrentMatch>>,
    board: Res<BoardState>,
    (computer, zoom, hint, animating): (Res<ComputerStatus>, Res<BoardZoom>, Res<HintShown>, Res<BoardAnimating>),
    (cameras, transforms): (Query<(&Camera, &GlobalTransform)>, Query<&GlobalTransform>),
    (lesson, books, review): (Option<Res<LessonRun>>, Res<LessonBooks>, Res<ReviewShown>),
    (setup, file, mut last): (Option<Res<SetupChoice>>, Res<MirrorFile>, Local<String>),
) {
    let Ok((camera, camera_at)) = cameras.single() else { return };
    // Board positions are relative to the board's root, which is offset to leave room for the HUD.
    let root = board.root.and_then(|r| transforms.get(r).ok()).copied().unwrap_or_default();
    let status = (&*computer, &*zoom, &*hint, animating.0);
    let text = state_json(
        *screen.get(),
        current.as_deref(),
        &board,
        status,
        (lesson.as_deref(), &books, &review, setup.as_deref()),
        |p| camera.world_to_viewport(camera_at, root.transform_point(p.extend(0.0))).ok(),
    );
    if *last != text {
        write_out(&text, &file);
        *last = text;
    }
}

#[cfg(target_arch = "wasm32")]
fn write_out(text: &str, _: &MirrorFile) {
    let element = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("stoneyard-state"));
    if let Some(element) = element {
        element.set_text_content(Some(text));
    }
}

/// Written whole then renamed, so a reader never sees half a state.
#[cfg(not(target_arch = "wasm32"))]
fn write_out(text: &str, file: &MirrorFile) {
    let Some(path) = &file.0 else { return };
    let partial = path.with_extension("partial");
    if let Err(e) = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, path)) {
        warn!("cannot write the state mirror {}: {e}", path.display());
    }
}
