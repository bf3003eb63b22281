//! `POST /generator`: the scripted server as an operator's `http`
//! generator (genui-model's `providers::http` wire). It checks the
//! request's `X-Genui-Signature` under `--generator-secret` (401 when it
//! does not verify), refuses a request that carries `data` (400), and plays
//! the scenario named by a `[scenario:<name>]` tag in the description:
//!
//! | name | what it answers |
//! |---|---|
//! | `good` (default) | a plan listing every field, in reverse order, titled "From the generator" |
//! | `uischema` | the same as a JSON Forms `uischema` (a Group per field pair) |
//! | `slow` | the good plan after 5 s |
//! | `hang` | nothing for 60 s |
//! | `garbage` | an HTML page with status 200, every time |
//! | `misfit` | the good plan with a `checkbox` on the first string field, every time |
//! | `invented` | a plan of fields the schema does not have, every time |
//! | `server-error` | 503, every time |

use super::{record, scenario_tag, Request, Response, Server, HANG};
use genui_core::Webhook;
use serde_json::{json, Value};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub(super) fn call(request: &Request, server: &Server) -> Response {
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    record(request, &body, server);
    if let Some(secret) = &server.options.generator_secret {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        if let Err(e) = Webhook::verify_generator(
            request.header("x-genui-signature"),
            &request.body,
            secret,
            now,
        ) {
            return Response::json(401, &json!({"error": e.message()}));
        }
    }
    if body.get("data").is_some() {
        return Response::json(
            400,
            &json!({"error": "a generator request must never carry `data`"}),
        );
    }
    let description = body["description"].as_str().unwrap_or_default();
    let fields: Vec<(String, String)> = body["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            (
                f["pointer"].as_str().unwrap_or_default().to_owned(),
                f["type"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let pointers: Vec<String> = fields.iter().rev().map(|(p, _)| p.clone()).collect();
    let plan = json!({"title": "From the generator", "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": pointers}], "overrides": []});
    match scenario_tag(description).as_deref().unwrap_or("good") {
        "good" => Response::json(200, &plan),
        "uischema" => {
            let groups: Vec<Value> = pointers
                .chunks(2)
                .enumerate()
                .map(|(i, pair)| {
                    let controls: Vec<Value> = pair.iter().map(|p| json!({"type": "Control", "scope": format!("#{p}")})).collect();
                    json!({"type": "Group", "label": format!("Part {}", i + 1), "elements": controls})
                })
                .collect();
            Response::json(
                200,
                &json!({"uischema": {"type": "VerticalLayout", "elements": groups}}),
            )
        }
        "slow" => {
            thread::sleep(Duration::from_secs(5));
            Response::json(200, &plan)
        }
        "hang" => {
            thread::sleep(HANG);
            Response::json(200, &plan)
        }
        "garbage" => Response {
            status: 200,
            headers: vec![("content-type".into(), "text/html".into())],
            body: "<html><body>Oops, not a plan</body></html>".into(),
        },
        "misfit" => {
            let mut misfit = plan;
            if let Some((pointer, _)) = fields.iter().find(|(_, kind)| kind == "string") {
                misfit["overrides"] = json!([{"pointer": pointer, "label": null, "widget": "checkbox", "help": null, "placeholder": null}]);
            }
            Response::json(200, &misfit)
        }
        "invented" => {
            let invented: Vec<String> = (0..fields.len().max(1))
                .map(|i| format!("/properties/invented{i}"))
                .collect();
            Response::json(
                200,
                &json!({"title": null, "steps": false, "sections": [{"label": null, "layout": "vertical", "fields": invented}], "overrides": []}),
            )
        }
        "server-error" => Response::json(503, &json!({"error": "the generator is down"})),
        other => Response::json(400, &json!({"error": format!("no scenario {other}")})),
    }
}
