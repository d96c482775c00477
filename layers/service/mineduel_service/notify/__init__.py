"""Notifications: telling players what concerns them while no page of theirs is open.

Web Push to browsers (RFC 8030, RFC 8291, RFC 8292) and mobile push through SNS platform
endpoints (APNs, FCM), driven by the table's stream: the fan-out derives the notices a change
of a game calls for (``notices``) and queues them (``outbox``); the delivery function sends
them (``delivery``), behind the queue, with retries and a dead-letter queue. A player's
subscriptions (``store``) and preferences (the profile's ``settings.notify``) decide where and
whether. docs/notifications.md tells the whole of it.
"""

USE_CASES: tuple[str, ...] = ("subscriptions", "vapid_key", "delivery", "platforms")
