import type { Request } from 'express';
import { ApiError } from '@stormhook/errors';
import { enumValue, notificationV1 } from '@stormhook/proto';
import { validatedBody, validatedParams } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { DEFAULT_DELIVERY_PAGE_SIZE, DeliveryPageRequest, NotificationIdParams } from '../schemas/deliveries.js';
import { deliveryJson } from './deliveries-json.js';
import { targetAccountId } from './webhooks-account.js';
import type { WebhookHandlerDeps } from './webhooks.js';

const notificationIdOf = (req: Request): string => validatedParams(req, NotificationIdParams).notificationId;

/** The delivery log of the account's webhook and its replay, over the notifier. A foreign id answers 404. */
export function deliveryHandlers({ notifier, identity }: WebhookHandlerDeps): Handlers {
  return {
    getDeliveryPage: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const body = validatedBody(req, DeliveryPageRequest);
      if (body.fromEpochMs !== undefined && body.toEpochMs !== undefined && body.fromEpochMs >= body.toEpochMs) {
        throw new ApiError(400, 'toEpochMs must be after fromEpochMs');
      }
      const page = { pageNumber: body.pageNumber ?? 0, pageSize: body.pageSize ?? DEFAULT_DELIVERY_PAGE_SIZE };
      const listed = await notifier.listDeliveries({
        accountId,
        registrationId: body.registrationId ?? '',
        // The schema admits only the public names.
        status: body.status ? enumValue(notificationV1.DeliveryStatus, body.status) : 'DELIVERY_STATUS_UNSPECIFIED',
        fromEpochMs: body.fromEpochMs ?? 0,
        toEpochMs: body.toEpochMs ?? 0,
        failureClass: body.failureClass ? enumValue(notificationV1.WebhookFailureClass, body.failureClass) : 'WEBHOOK_FAILURE_CLASS_UNSPECIFIED',
        callbackType: body.callbackType ?? '',
        cursor: body.cursor ?? '',
        page,
      });
      res.json({
        deliveries: listed.deliveries.map((delivery) => deliveryJson(delivery, false)),
        totalRecords: listed.page?.totalRecords ?? 0,
        pageNumber: page.pageNumber,
        pageSize: page.pageSize,
        nextCursor: listed.nextCursor === '' ? null : listed.nextCursor,
      });
    },
    getDelivery: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { delivery } = await notifier.getDelivery({ accountId, notificationId: notificationIdOf(req) });
      res.json(deliveryJson(delivery, true));
    },
    redeliverDelivery: async (req, res) => {
      const accountId = await targetAccountId(req, identity);
      const { delivery } = await notifier.redeliver({ accountId, notificationId: notificationIdOf(req) });
      res.status(202).json(deliveryJson(delivery, true));
    },
  };
}
