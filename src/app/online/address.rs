//! Where the game server is and how people are invited to a game, as plain text: the default
//! socket address, a typed address completed, the page's own server in the browser, invite links
//! and the `?join=CODE` of a page's address. Pure (no Bevy), so it is tested as text.

use crate::online::protocol::SOCKET_PATH;

/// The server natively when the player has not chosen one: `stoneyard serve` on this computer.
pub const DEFAULT_NATIVE_SERVER: &str = "ws://127.0.0.1:7878/ws";

/// The socket of the server that served a page (`protocol` as `location.protocol` gives it,
/// `"https:"`; `host` with its port): `stoneyard serve --web DIR` serves both from one address.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the browser's page only
pub fn socket_of_page(protocol: &str, host: &str) -> String {
    let scheme = if protocol.eq_ignore_ascii_case("https:") { "wss" } else { "ws" };
    format!("{scheme}://{host}{SOCKET_PATH}")
}

/// A typed server address made whole: `host:port` gets `ws://` and `/ws`, an `http(s)://` page
/// address becomes its socket. Refuses what cannot be a server's address.
pub fn complete_server(typed: &str) -> Result<String, String> {
    let typed = typed.trim();
    let (scheme, rest) = match typed.split_once("://") {
        Some((s, rest)) => match s.to_ascii_lowercase().as_str() {
            "ws" | "http" => ("ws", rest),
            "wss" | "https" => ("wss", rest),
            other => return Err(format!("'{other}://' is not a server address: use ws:// or wss://")),
        },
        None => ("ws", typed),
    };
    let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err("the address needs a host name, such as 127.0.0.1:7878".to_string());
    }
    let path = match path.trim_end_matches('/') {
        "" => SOCKET_PATH.to_string(),
        p => format!("/{p}"),
    };
    Ok(format!("{scheme}://{host}{path}"))
}

/// The link that opens the page of the server at socket address `server` with `code` to join:
/// `ws://host:7878/ws` → `http://host:7878/?join=CODE` (the server serves the browser game).
pub fn invite_link_for_server(server: &str, code: &str) -> String {
    page_link_for_server(server, "join", code)
}

/// The link that opens the page of the server at `server` watching game `game_id`
/// (`http://host:7878/?watch=ID`).
pub fn watch_link_for_server(server: &str, game_id: &str) -> String {
    page_link_for_server(server, "watch", game_id)
}

fn page_link_for_server(server: &str, key: &str, value: &str) -> String {
    let (scheme, rest) = server.split_once("://").unwrap_or(("ws", server));
    let web = if scheme.eq_ignore_ascii_case("wss") { "https" } else { "http" };
    let host = rest.split('/').next().unwrap_or(rest);
    format!("{web}://{host}/?{key}={value}")
}

/// The link to this page (its address as `location.href` gives it) with `code` to join, in place
/// of any query or fragment it had.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the browser's page only
pub fn invite_link_for_page(page: &str, code: &str) -> String {
    page_link(page, "join", code)
}

/// The link to this page watching game `game_id`.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the browser's page only
pub fn watch_link_for_page(page: &str, game_id: &str) -> String {
    page_link(page, "watch", game_id)
}

fn page_link(page: &str, key: &str, value: &str) -> String {
    let base = page.split(['?', '#']).next().unwrap_or(page);
    format!("{base}?{key}={value}")
}

/// The invite code in a page's query (`location.search`, `"?join=AB12&x=1"`), if it has one.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the browser's page only
pub fn join_code_in_query(search: &str) -> Option<String> {
    value_in_query(search, "join")
}

/// The game to watch in a page's query (`"?watch=0f3a…"`), if it has one.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // the browser's page only
pub fn watched_game_in_query(search: &str) -> Option<String> {
    value_in_query(search, "watch")
}

/// A value of the query made of letters, digits and dashes only (a code or a game id).
fn value_in_query(search: &str, wanted: &str) -> Option<String> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(key, _)| *key == wanted)
        .map(|(_, value)| value.trim().to_string())
        .filter(|value| !value.is_empty() && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// A code as a player may type it ("ab 12-cd"): trimmed, inner spaces gone, upper case.
pub fn tidy_code(typed: &str) -> String {
    typed.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_uppercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_s_socket_follows_its_scheme_and_host() {
        assert_eq!(socket_of_page("https:", "games.example:8443"), "wss://games.example:8443/ws");
        assert_eq!(socket_of_page("http:", "127.0.0.1:7878"), "ws://127.0.0.1:7878/ws");
    }

    #[test]
    fn typed_addresses_are_completed_or_refused() {
        assert_eq!(complete_server("127.0.0.1:7878").unwrap(), "ws://127.0.0.1:7878/ws");
        assert_eq!(complete_server(" https://example.org/ ").unwrap(), "wss://example.org/ws");
        assert_eq!(complete_server("ws://h:1/ws").unwrap(), "ws://h:1/ws");
        assert_eq!(complete_server("ws://h:1/games/ws/").unwrap(), "ws://h:1/games/ws");
        assert!(complete_server("ftp://h").is_err());
        assert!(complete_server("ws://").is_err());
        assert!(complete_server("").is_err());
    }

    #[test]
    fn invite_links_open_the_servers_page_with_the_code() {
        assert_eq!(invite_link_for_server("ws://10.0.0.2:7878/ws", "AB12"), "http://10.0.0.2:7878/?join=AB12");
        assert_eq!(invite_link_for_server("wss://example.org/ws", "AB12"), "https://example.org/?join=AB12");
        assert_eq!(
            invite_link_for_page("https://example.org/play/?join=OLD#top", "NEW1"),
            "https://example.org/play/?join=NEW1"
        );
    }

    #[test]
    fn the_join_code_is_read_from_the_query_and_typed_codes_are_tidied() {
        assert_eq!(join_code_in_query("?join=AB12&x=1").as_deref(), Some("AB12"));
        assert_eq!(join_code_in_query("?x=1&join=Q-7").as_deref(), Some("Q-7"));
        assert_eq!(join_code_in_query("?join="), None);
        assert_eq!(join_code_in_query("?join=<script>"), None);
        assert_eq!(join_code_in_query(""), None);
        assert_eq!(tidy_code(" ab 12\n"), "AB12");
    }

    #[test]
    fn watch_links_name_the_game_and_are_read_back() {
        assert_eq!(watch_link_for_server("ws://10.0.0.2:7878/ws", "0f3a"), "http://10.0.0.2:7878/?watch=0f3a");
        assert_eq!(watch_link_for_page("https://example.org/?join=AB#x", "0f3a"), "https://example.org/?watch=0f3a");
        assert_eq!(watched_game_in_query("?x=1&watch=0f3a").as_deref(), Some("0f3a"));
        assert_eq!(watched_game_in_query("?join=AB12"), None);
        assert_eq!(watched_game_in_query("?watch=../x"), None);
    }
}
