//! Request targets into route keys, so that `/orders/1182` and `/orders/1183` land in one row.

/// The route key of a request target: query string and fragment dropped, numeric segments
/// replaced by `:id`, trailing slash removed (except for `/` itself).
pub fn normalize(target: &str) -> String {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| if is_numeric(s) { ":id" } else { s })
        .collect();
    if segments.is_empty() {
        return "/".to_string();
    }
    format!("/{}", segments.join("/"))
}

fn is_numeric(segment: &str) -> bool {
    !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit())
}

/// Routes that are never worth a row of their own (health checks, the favicon).
pub fn is_noise(route: &str) -> bool {
    matches!(route, "/healthz" | "/readyz" | "/favicon.ico" | "/robots.txt")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_numeric_ids() {
        assert_eq!(normalize("/orders/1182/items/3?expand=1"), "/orders/:id/items/:id");
    }

    #[test]
    fn keeps_the_root() {
        assert_eq!(normalize("/?utm=x"), "/");
    }
}
