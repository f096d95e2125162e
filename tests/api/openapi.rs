//! The OpenAPI document describes every served route, and every route in it
//! is served.

use lexstack::http::{OPENAPI_YAML, ROUTES};

use crate::helpers::spawn_app;

/// (METHOD, path) pairs under `paths:` in the YAML, read line by line: paths
/// sit at two spaces of indent, their operations at four.
fn documented_operations() -> Vec<(String, String)> {
    let mut operations = Vec::new();
    let mut in_paths = false;
    let mut current = None;
    for line in OPENAPI_YAML.lines() {
        if line.starts_with("paths:") {
            in_paths = true;
            continue;
        }
        if !in_paths {
            continue;
        }
        if !line.starts_with(' ') && !line.trim().is_empty() {
            break;
        }
        if let Some(path) = line.strip_prefix("  /") {
            current = Some(format!("/{}", path.trim_end().trim_end_matches(':')));
        } else if let Some(rest) = line.strip_prefix("    ") {
            let word = rest.trim_end().trim_end_matches(':');
            if ["get", "post", "put", "patch", "delete"].contains(&word)
                && let Some(path) = &current
            {
                operations.push((word.to_uppercase(), path.clone()));
            }
        }
    }
    operations
}

#[test]
fn every_route_is_documented_and_every_documented_route_exists() {
    let documented = documented_operations();
    for (method, path) in ROUTES {
        assert!(
            documented.iter().any(|(m, p)| m == method && p == path),
            "{method} {path} is served but not in data-schema/openapi.yaml"
        );
    }
    for (method, path) in &documented {
        assert!(
            ROUTES.iter().any(|(m, p)| m == method && p == path),
            "{method} {path} is documented but not served"
        );
    }
}

#[tokio::test]
async fn every_route_in_the_table_is_really_routed() {
    let app = spawn_app().await;
    for (method, template) in ROUTES {
        let path = template.replace("{keyId}", "key_missing");
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let response = app
            .client
            .request(method.clone(), app.url(&path))
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        let unrouted = status == 405 || (status == 404 && body.contains("no route"));
        assert!(!unrouted, "{method} {path} answered {status}: {body}");
    }
}

#[tokio::test]
async fn the_document_is_served() {
    let app = spawn_app().await;
    let response = app
        .client
        .get(app.url("/v1/openapi.yaml"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/yaml");
    let text = response.text().await.unwrap();
    assert!(text.starts_with("openapi: 3."));
}
