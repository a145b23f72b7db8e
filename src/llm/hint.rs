//! Where a page and a server are, as far as a fix depends on it: this machine, the local
//! network, a public https page (the sentences themselves are in `crate::sentences`).

use super::error::LlmError;

impl LlmError {
    /// A network failure that Chrome's Private Network Access may have caused: a public https
    /// page calling this machine or the local network. The embed's one-line hint follows it.
    pub fn private_network(&self, page_origin: &str) -> bool {
        matches!(self, Self::Network { url, .. } if is_public_https(page_origin) && is_private_url(url))
    }
}

/// Where a page comes from, as far as calling a server on the reader's own computer depends on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagePlace {
    /// This computer (or a file, or an origin that is not http at all): nothing in the way.
    ThisComputer,
    /// An https site elsewhere: the server must allow its origin, and Chrome asks the reader
    /// before it reaches the local network.
    Https,
    /// A plain-http address elsewhere (a classroom's LAN host): not a secure context, so Chrome
    /// cannot even ask.
    Http,
}

/// Where the page at `page_origin` (like `https://me.github.io`) is.
pub fn page_place(page_origin: &str) -> PagePlace {
    match super::http_host(page_origin) {
        Some((_, host)) if is_loopback_host(&host) => PagePlace::ThisComputer,
        Some((true, _)) => PagePlace::Https,
        Some((false, _)) => PagePlace::Http,
        None => PagePlace::ThisComputer,
    }
}

fn is_public_https(page_origin: &str) -> bool {
    page_place(page_origin) == PagePlace::Https
}

fn is_private_url(url: &str) -> bool {
    matches!(super::http_host(url), Some((_, host)) if is_loopback_host(&host) || is_lan_host(&host))
}

/// Private IPv4 ranges (10/8, 172.16/12, 192.168/16, link-local 169.254/16) and mDNS names.
fn is_lan_host(host: &str) -> bool {
    let octets: Vec<u8> = host.split('.').filter_map(|p| p.parse().ok()).collect();
    let ipv4 = octets.len() == 4 && host.split('.').count() == 4;
    let private_ip = ipv4
        && match octets[..] {
            [10, ..] | [192, 168, ..] | [169, 254, ..] => true,
            [172, b, ..] => (16..=31).contains(&b),
            _ => false,
        };
    private_ip || host.ends_with(".local")
}

/// The hosts browsers treat as this machine (and so exempt from mixed-content blocking).
pub(super) fn is_loopback_host(host: &str) -> bool {
    let ipv4_loopback = || {
        let parts: Vec<&str> = host.split('.').collect();
        parts.len() == 4 && parts[0] == "127" && parts.iter().all(|p| p.parse::<u8>().is_ok())
    };
    host == "localhost" || host.ends_with(".localhost") || host == "::1" || ipv4_loopback()
}
