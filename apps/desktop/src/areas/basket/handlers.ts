/** `basket.*` and `catalog.ordered`: the records put aside for an order or a delivery. */
import type { basketMethods } from './contract';
import type { BackendBasket } from '../../backend/basket';
import type { HandlersFor } from '../../backend/dispatch';

export type BasketHandlers = HandlersFor<keyof typeof basketMethods>;

export function basketHandlers(basket: BackendBasket): BasketHandlers {
  return {
    'basket.list': () => basket.list(),
    'basket.add': ({ ids }) => basket.add(ids),
    'basket.addArchive': ({ searchId, sceneIds }) => basket.addArchive(searchId, sceneIds),
    'basket.remove': ({ ids }) => basket.remove(ids),
    'basket.clear': () => basket.clear(),
    'catalog.ordered': () => basket.ordered(),
    'catalog.scenes': ({ sceneIds }) => basket.scenes(sceneIds),
  };
}
